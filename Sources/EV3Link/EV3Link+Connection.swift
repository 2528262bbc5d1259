import EV3Protocol
import Logging
public import Support

extension EV3Link {
    /// Keeps the brick connected until the task is cancelled: connects, reads the brick's identity, serves
    /// requests until the connection ends, reports it, waits the back-off and connects again. The back-off
    /// starts over after every connection that got as far as the brick's identity. Returns after one
    /// connection for an endpoint that cannot be reopened (`usbReports`). Call it once; a second call while
    /// it runs returns at once.
    public func run(backoff: Backoff) async {
        guard !running else { return }
        running = true
        defer { running = false }
        var backoff = backoff
        while !Task.isCancelled {
            eventSink.yield(.connecting)
            let (reason, connected) = await connectAndServe()
            if connected { backoff.reset() }
            // A brick that is off fails every attempt: only the end of a working connection is news.
            logger.log(
                level: connected ? .info : .debug, connected ? "EV3 brick disconnected" : "EV3 brick not reached",
                metadata: ["ev3.endpoint": "\(endpoint)", "ev3.reason": "\(reason)"])
            eventSink.yield(.disconnected(reason))
            guard endpoint.canReconnect else { break }
            do {
                try await Task.sleep(for: backoff.next())
            } catch {
                break
            }
        }
    }

    /// One connection from open to end; returns why it ended and whether the brick had answered.
    private func connectAndServe() async -> (EV3LinkError, Bool) {
        let channel: FrameChannel
        do throws(EV3LinkError) {
            channel = try await FrameChannel.open(
                label: endpoint.description, framing: endpoint.transport == .usb ? .reports : .stream,
                timeout: options.connectTimeout, logger: logger
            ) { [endpoint] (context) throws(EV3LinkError) in
                try Openers.open(endpoint, context: context)
            }
        } catch {
            return (error, false)
        }
        generations += 1
        let generation = generations
        session = Session(generation: generation, channel: channel)
        missedInARow = 0
        lastSent = nil
        var connected = false
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.read(channel, generation) }
            group.addTask { await self.pump(generation) }
            do throws(EV3LinkError) {
                let info = try await introduce()
                connected = true
                session?.introduced = true
                if introducedBefore { EV3Metrics.reconnects.increment() }
                introducedBefore = true
                logger.info(
                    "EV3 brick connected",
                    metadata: ["ev3.endpoint": "\(endpoint)", "ev3.name": "\(info.name)", "ev3.serial": "\(info.serialNumber ?? "?")"])
                eventSink.yield(.connected(info))
            } catch {
                end(error, generation)
            }
            await group.waitForAll()
        }
        let reason = session?.endReason ?? .closed
        session = nil
        return (reason, connected)
    }

    /// Hands frames to `receive` until the connection ends (or the task is cancelled), then ends it.
    private func read(_ channel: FrameChannel, _ generation: Int) async {
        var reason = EV3LinkError.closed
        for await event in channel.inbound {
            switch event {
            case .frame(let frame): receive(frame, generation)
            case .closed(let why): reason = why
            }
        }
        end(reason, generation)
    }

    /// Reads the brick's name and versions in one command, and its serial number with GET_ID when the
    /// endpoint does not tell it (GET_ID alone: a firmware that refuses it must not blank the rest).
    private func introduce() async throws(EV3LinkError) -> EV3BrickInfo {
        var batch = EV3Batch()
        let name: EV3Handle<String>, firmware: EV3Handle<String>, build: EV3Handle<String>, hardware: EV3Handle<String>
        do {
            name = batch.append(try .brickName(length: 13))
            firmware = batch.append(try .firmwareVersion(length: 8))
            build = batch.append(try .firmwareBuild(length: 12))
            hardware = batch.append(try .hardwareVersion(length: 8))
        } catch {
            throw .encoding(error)
        }
        let reply = try await send(batch, introducing: true)
        guard reply.status == .ok else { throw .refused(counter: reply.counter) }
        var info: EV3BrickInfo
        do {
            info = EV3BrickInfo(
                serialNumber: endpoint.knownSerial, name: try batch.read(name, from: reply),
                firmwareVersion: try batch.read(firmware, from: reply), firmwareBuild: try batch.read(build, from: reply),
                hardwareVersion: try batch.read(hardware, from: reply), transport: endpoint.transport)
        } catch {
            throw .malformedReply(error.description)
        }
        if info.serialNumber == nil { info.serialNumber = try await bluetoothAddress() }
        return info
    }

    /// The brick's Bluetooth address as a serial number, or nil if it will not tell.
    private func bluetoothAddress() async throws(EV3LinkError) -> String? {
        var batch = EV3Batch()
        guard let query = try? EV3Query<String>.bluetoothAddress(length: 13) else { return nil }
        let handle = batch.append(query)
        let reply = try await send(batch, introducing: true)
        guard let text = try? batch.read(handle, from: reply) else { return nil }
        let digits = text.filter { $0 != ":" }.lowercased()
        return digits.count == 12 && digits.allSatisfy(\.isHexDigit) ? digits : nil
    }
}
