import Glibc

/// Why a private file could not be written: the step and the `errno` text.
public struct PrivateFileError: Error, CustomStringConvertible, Sendable {
    public let description: String
}

/// Files only the daemon's user may read (mode 0600), written whole: a reader sees the old contents or the new,
/// never part, and never a moment where the file is readable by others, whatever the umask or the mode of the
/// file it replaces.
public enum PrivateFile {
    /// Writes `bytes` to a new file beside `path`, mode 0600, flushed, then renames it over `path`.
    public static func write(_ bytes: [UInt8], to path: String) throws(PrivateFileError) {
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw failure("cannot create \(temporary)") }
        // O_CREAT's mode is cut by the umask but never widened; a file left by an earlier crash keeps its own.
        var ok = fchmod(fd, 0o600) == 0
        var written = 0
        while ok, written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { ok = false } else { written += count }
        }
        ok = ok && fsync(fd) == 0
        let step = errno
        close(fd)
        guard ok, rename(temporary, path) == 0 else {
            let error = failure("cannot write \(path)", code: ok ? errno : step)
            unlink(temporary)
            throw error
        }
    }

    private static func failure(_ what: String, code: Int32 = errno) -> PrivateFileError {
        PrivateFileError(description: "\(what): \(String(cString: strerror(code)))")
    }
}

extension PrivateFile {
    /// Takes read and write access away from everyone but the owner of an existing file (one written by an older
    /// release, or copied in by hand); true if the mode had to change.
    @discardableResult
    public static func restrict(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_mode & 0o077 != 0 else { return false }
        return chmod(path, info.st_mode & 0o700) == 0
    }
}
