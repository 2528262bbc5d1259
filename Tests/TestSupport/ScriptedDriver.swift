public import BridgeCore
import Synchronization

/// A `DeviceDriver` for tests: the test emits its events and reads the commands the bridge sent it.
public final class ScriptedDriver: DeviceDriver {
    /// A command the bridge handed to the driver.
    public struct Received: Sendable, Equatable {
        public let device: DeviceID
        public let command: DeviceCommand

        /// Creates a record, e.g. to compare against.
        public init(device: DeviceID, command: DeviceCommand) {
            self.device = device
            self.command = command
        }
    }

    private struct Record {
        var commands: [Received] = []
        var requests: [(name: String, payload: [String: JSONValue])] = []
        var forgotten: [DeviceID] = []
        var failure: CommandError?
    }

    /// The family this driver pretends to be.
    public let integration: Integration
    private let sink: DeviceEventSink
    private let record = Mutex(Record())

    /// Creates a driver that reports through `sink`.
    public init(integration: Integration, sink: DeviceEventSink) {
        self.integration = integration
        self.sink = sink
    }

    /// Reports an event to the bridge, as a real driver would.
    public func emit(_ event: DeviceEvent) { sink.send(event) }

    /// Reports a device, its availability and its state, then that the inventory is complete.
    public func announce(_ descriptor: DeviceDescriptor, online: Bool = true, state: [String: JSONValue] = [:]) {
        emit(.discovered(descriptor))
        emit(.status(descriptor.id, online ? .ready : .unavailable))
        if !state.isEmpty { emit(.state(descriptor.id, state)) }
    }

    /// Makes every following `perform` throw this error (nil to accept again).
    public func failCommands(with error: CommandError?) { record.withLock { $0.failure = error } }

    /// Commands received so far, in order.
    public var commands: [Received] { record.withLock { $0.commands } }

    /// Names of driver requests received so far.
    public var requestNames: [String] { record.withLock { $0.requests.map(\.name) } }

    /// Devices the bridge asked the driver to forget.
    public var forgotten: [DeviceID] { record.withLock { $0.forgotten } }

    /// Waits for the command at position `index` (0 = first ever received).
    public func waitForCommand(at index: Int = 0, timeout: Duration = .seconds(10)) async throws -> Received {
        try await waitForValue("command #\(index) at the \(integration.rawValue) driver", timeout: timeout) {
            let commands = self.commands
            return commands.count > index ? commands[index] : nil
        }
    }

    /// Waits until the bridge has called `forget` for a device.
    public func waitForForget(_ device: DeviceID, timeout: Duration = .seconds(10)) async throws {
        try await waitUntil("forget(\(device))", timeout: timeout) { forgotten.contains(device) }
    }

    /// Idles until cancelled; events come from the test.
    public func run() async throws {
        while !Task.isCancelled { try await Task.sleep(for: .seconds(3600)) }
    }

    /// Records the command; throws the configured failure, if any.
    public func perform(_ command: DeviceCommand, on device: DeviceID) async throws(CommandError) {
        let failure = record.withLock { record in
            record.commands.append(Received(device: device, command: command))
            return record.failure
        }
        if let failure { throw failure }
    }

    /// Answers `echo` with its payload; refuses any other request.
    public func handleRequest(_ name: String, payload: [String: JSONValue]) async throws(CommandError) -> JSONValue {
        record.withLock { $0.requests.append((name, payload)) }
        guard name == "echo" else { throw CommandError("scripted driver has no request \"\(name)\"") }
        return .object(payload)
    }

    /// Records the device.
    public func forget(_ device: DeviceID) async {
        record.withLock { $0.forgotten.append(device) }
    }
}
