/// A system command's code (`c_com.h`); an open set, so a reply naming an unknown one still parses.
public struct EV3SystemCommandCode: RawRepresentable, Sendable, Hashable {
    /// The byte on the wire.
    public let rawValue: UInt8
    /// Wraps a byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `92` BEGIN_DOWNLOAD: start writing a file to the brick.
    public static let beginDownload = Self(rawValue: 0x92)
    /// `93` CONTINUE_DOWNLOAD: the next part of a file being written.
    public static let continueDownload = Self(rawValue: 0x93)
    /// `94` BEGIN_UPLOAD: start reading a file from the brick.
    public static let beginUpload = Self(rawValue: 0x94)
    /// `95` CONTINUE_UPLOAD: the next part of a file being read.
    public static let continueUpload = Self(rawValue: 0x95)
    /// `96` BEGIN_GETFILE: start reading a file that may still grow.
    public static let beginGetFile = Self(rawValue: 0x96)
    /// `97` CONTINUE_GETFILE: the next part of such a file.
    public static let continueGetFile = Self(rawValue: 0x97)
    /// `98` CLOSE_FILEHANDLE: free a handle.
    public static let closeFileHandle = Self(rawValue: 0x98)
    /// `99` LIST_FILES: list a folder.
    public static let listFiles = Self(rawValue: 0x99)
    /// `9A` CONTINUE_LIST_FILES: the next part of a listing.
    public static let continueListFiles = Self(rawValue: 0x9A)
    /// `9B` CREATE_DIR: make a folder.
    public static let createDirectory = Self(rawValue: 0x9B)
    /// `9C` DELETE_FILE: remove a file or empty folder.
    public static let deleteFile = Self(rawValue: 0x9C)
    /// `9D` LIST_OPEN_HANDLES: which handles are busy.
    public static let listOpenHandles = Self(rawValue: 0x9D)
    /// `9E` WRITEMAILBOX: write to a program's mailbox.
    public static let writeMailbox = Self(rawValue: 0x9E)
    /// `9F` BLUETOOTHPIN: set the pairing PIN (USB only).
    public static let bluetoothPin = Self(rawValue: 0x9F)
    /// `A0` ENTERFWUPDATE: restart into firmware update mode.
    public static let enterFirmwareUpdate = Self(rawValue: 0xA0)
}

/// The status byte of a system reply (`c_com.h`); an open set.
public struct EV3SystemStatus: RawRepresentable, Sendable, Hashable {
    /// The byte on the wire.
    public let rawValue: UInt8
    /// Wraps a byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `00` SUCCESS.
    public static let success = Self(rawValue: 0x00)
    /// `01` UNKNOWN_HANDLE.
    public static let unknownHandle = Self(rawValue: 0x01)
    /// `02` HANDLE_NOT_READY.
    public static let handleNotReady = Self(rawValue: 0x02)
    /// `03` CORRUPT_FILE.
    public static let corruptFile = Self(rawValue: 0x03)
    /// `04` NO_HANDLES_AVAILABLE.
    public static let noHandlesAvailable = Self(rawValue: 0x04)
    /// `05` NO_PERMISSION.
    public static let noPermission = Self(rawValue: 0x05)
    /// `06` ILLEGAL_PATH.
    public static let illegalPath = Self(rawValue: 0x06)
    /// `07` FILE_EXITS (sic in `c_com.h`).
    public static let fileExists = Self(rawValue: 0x07)
    /// `08` END_OF_FILE: the last part was sent.
    public static let endOfFile = Self(rawValue: 0x08)
    /// `09` SIZE_ERROR.
    public static let sizeError = Self(rawValue: 0x09)
    /// `0A` UNKNOWN_ERROR.
    public static let unknownError = Self(rawValue: 0x0A)
    /// `0B` ILLEGAL_FILENAME.
    public static let illegalFilename = Self(rawValue: 0x0B)
    /// `0C` ILLEGAL_CONNECTION.
    public static let illegalConnection = Self(rawValue: 0x0C)
}
