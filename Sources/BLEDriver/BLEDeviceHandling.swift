import BLEFormats
import BLEModels
import BridgeCore
import BlueZ
import DBus
import FoundationEssentials
import Support

/// Devices: which appear, their signal, data, last-seen time and status.
extension BLEDriver {
    /// Takes one change of a device, at the batch's time `now`, as part of a batch (opened here if none is), which
    /// `flushOutbox()` ends.
    func deviceChanged(
        _ device: BlueZDevice, properties: BlueZDevice.Properties, earlier: [EarlierAdvert], _ client: BlueZClient,
        at now: Double
    ) {
        if outbox == nil { outbox = [] }
        guard let address = device.address else { return }
        let path = device.path
        // A value derived from the RSSI follows it: BlueZ sends a beacon's unchanged data once, then RSSI alone.
        let hasData = !properties.isDisjoint(with: .advertData)
            || (properties.contains(.rssi) && tracked[path]?.passive?.derivesFromRSSI == true)
        let results = hasData ? decode(device, earlier: earlier, key: bindkey(for: address)) : []
        if hasData || properties.contains(.rssi) { BLEMetrics.advertsReceived.increment(by: 1 + earlier.count) }
        if results.contains(where: \.isRecognised) { BLEMetrics.advertsDecoded.increment() }
        var index = tracked.index(forKey: path)
        if index == nil {
            guard admit(device, address, passive: results.first(where: \.isRecognised)?.format) else { return }
            index = tracked.index(forKey: path)
        }
        guard let index else { return }
        // Stepped where it is stored: the path is hashed once, and the entry (its windows and tables) is
        // neither copied nor moved out and back. Nothing the step calls reads `tracked`.
        let (status, signalMoved) = step(&tracked.values[index], device, properties, results, at: now)
        // A status change is reviewed at once; a signal that moved, at most every policyPause (the once-a-second
        // sweep catches the rest): the policies weigh every device, and adverts come by the thousand.
        if let status { setDeviceStatus(path, status) }
        if status != nil || (signalMoved && now - policiesRun >= Self.policyPause) { applyPolicies() }
    }

    /// One change of a tracked device: its descriptor, readings, signal and occurrences; returns the status to
    /// report, if it changed, and whether the signal moved.
    private func step(
        _ entry: inout TrackedDevice, _ device: BlueZDevice, _ properties: BlueZDevice.Properties,
        _ results: [PassiveResult], at now: Double
    ) -> (status: DeviceStatus?, signalMoved: Bool) {
        // The descriptor depends on these only; adverts (RSSI, data) do not rebuild it.
        var describeAgain = entry.descriptor == nil || !properties.isDisjoint(with: .descriptor)
        if describeAgain {
            entry.name = device.name ?? device.alias
            entry.services = Set(device.services)
            entry.adapter = device.adapter
        }
        let known = entry.quantities.count
        let (model, encrypted) = (entry.model, entry.encrypted)
        let measurements = ingest(results, into: &entry, at: now)
        if entry.model != model || entry.encrypted != encrypted { describeAgain = true }
        // Quiet buttons are learnt while ingesting, so their entities exist before the first press.
        if entry.learn(measurements) || entry.quantities.count != known { describeAgain = true }
        // Button presses and dimmer turns are occurrences: published once each, never state or throttled. Values
        // beyond the device's sensors stay out, so its state is bounded whatever it is sent.
        let split = SplitMeasurements(entry.known(measurements))

        var rssi: Int?
        var signalMoved = false
        if properties.contains(.rssi), let value = device.rssi, value != Signal.unavailableRSSI {
            rssi = value
            entry.window.add(rssi: value, at: now)
            // Other bridges of a cluster may hear it too: reported before the device is first described, at
            // most twice a second. Without a cluster nobody reads it.
            if shared, entry.heardAt.map({ now - $0 >= 0.5 }) ?? true {
                entry.heardAt = now
                send(.heard(entry.id, rssi: value, connects: connects(entry), holds: KnownDevice.holds(entry.status)))
            }
            if let signal = entry.window.signal(at: now).map({ ($0 * 100).rounded() / 100 }) {
                signalMoved = signal != entry.signal
                entry.signal = signal
            }
        }
        // The policies see every reading. The values and the signal wait for the batch's end, where the pacer
        // says whether the throttle weighs the newest of them now or at its next period (`settleReadings`).
        if describeAgain { describe(&entry) }
        if rssi != nil || !split.values.isEmpty {
            // Readings already pending are listed for this batch, or wait in the pacer: either way they are weighed.
            if entry.pending == nil {
                entry.pending = PendingReadings()
                unsettled.append(device.path)
            }
            entry.pending?.add(split.values, rssi: rssi)
        }
        for occurrence in split.occurrences { send(.event(entry.id, occurrence)) }
        return (reviewedStatus(entry, connected: device.connected, at: now), signalMoved)
    }

    /// Offers the readings the pacer lets go now (the batch's, and those that waited for this period) to each
    /// device's throttle, and adds the states due to the batch's events; the others wait for the next period.
    func settleReadings() {
        let now = self.now
        let wasWaiting = pacer.nextPeriod != nil
        let ready = pacer.settle(unsettled, at: now)
        unsettled.removeAll(keepingCapacity: true)
        if !wasWaiting, pacer.nextPeriod != nil { pacerBell.wake() }
        guard !ready.isEmpty else { return }
        if outbox == nil { outbox = [] }
        for path in ready {
            guard let index = tracked.index(forKey: path), let pending = tracked.values[index].pending else { continue }
            tracked.values[index].pending = nil
            let state = publishable(pending, &tracked.values[index], path: path, at: now)
            if !state.isEmpty { outbox?.append(.state(tracked.values[index].id, state)) }
        }
    }

    /// Weighs the readings that waited, at each of the pacer's periods while any wait; runs until cancelled.
    func settleOnPeriods() async {
        while !Task.isCancelled {
            let wait = pacer.nextPeriod.map { Duration.seconds(max($0 - now, 0)) } ?? .seconds(3600)
            guard await pacerBell.wait(wait) else { return }
            if let due = pacer.nextPeriod, now >= due { flushOutbox() }
        }
    }

    /// The state to publish for a device's readings, or none when the throttle says they are not worth it.
    private func publishable(
        _ pending: PendingReadings, _ entry: inout TrackedDevice, path: String, at now: Double
    ) -> [String: JSONValue] {
        guard entry.throttle.offer(pending.values, rssi: pending.rssi, now: now) != nil else { return [:] }
        var state: [String: JSONValue] = [:]
        state.reserveCapacity(pending.values.count + 3)
        for measurement in pending.values { state[measurement.key] = measurement.value.json }
        // Adverts that carried no RSSI (BlueZ sends only what changed) take the one BlueZ holds.
        if let rssi = pending.rssi ?? client?.objects.devices[path]?.rssi, rssi != Signal.unavailableRSSI {
            state["rssi"] = .number(Double(rssi))
            state["last_seen"] = .string(lastSeen.now())
            if let signal = entry.signal { state["signal"] = .number(signal) }
        }
        return state
    }

    /// Builds the descriptor again and announces it when it changed.
    func describeDevice(_ path: String) {
        guard var entry = tracked[path] else { return }
        describe(&entry)
        tracked[path] = entry
    }

    /// Builds a device's descriptor again and announces it when it changed.
    private func describe(_ entry: inout TrackedDevice) {
        let descriptor = entry.makeDescriptor()
        guard entry.descriptor != descriptor else { return }
        entry.descriptor = descriptor
        send(.discovered(descriptor))
        // A light's state carries `state` from its first message (Home Assistant's JSON light needs it): the
        // bridge knows the device now, so this state is not dropped as one of an unknown device.
        if descriptor.kind == "light", novas[entry.id] == nil {
            let session = NovaSession()
            novas[entry.id] = session
            send(.state(entry.id, session.confirmed.json))
        }
    }

    /// The status from the connection and presence, when it differs from the one reported; a connection being
    /// set up, or a command in flight, keeps its status until the connection drops.
    private func reviewedStatus(_ entry: TrackedDevice, connected: Bool, at now: Double) -> DeviceStatus? {
        let heard = entry.window.lastSeen.map { now - $0 < awayAfter } ?? false
        let status: DeviceStatus
        if connected {
            status = entry.status == .busy || entry.status == .connecting ? entry.status ?? .ready : .ready
        } else {
            status = entry.status == .connecting ? .connecting : (heard ? .available : .unavailable)
        }
        return entry.status == status ? nil : status
    }

    func setDeviceStatus(_ path: String, _ status: DeviceStatus, with state: [String: JSONValue] = [:]) {
        guard var entry = tracked[path] else { return }
        guard entry.status != status else { return }
        let wasConnected = entry.status?.isConnected == true
        let previous = entry.status
        if status == .unavailable { entry.throttle.reset() }
        entry.status = status
        tracked[path] = entry
        send(.status(entry.id, status, state: state))
        if KnownDevice.holds(status) != KnownDevice.holds(previous) { reportSlots() }
        // Connected and resolved afresh (not back from busy): the GATT tree is known now.
        if status == .ready, !wasConnected { tasks.start { await self.interview(path) } }
    }

    /// Marks devices not heard from for `away_after`, and not connected, unavailable; runs until cancelled.
    func sweep() async {
        while (try? await Task.sleep(for: .seconds(1))) != nil {
            for (path, entry) in tracked where entry.status?.isConnected != true && entry.status != .connecting {
                let silent = entry.window.lastSeen.map { now - $0 >= awayAfter } ?? true
                if silent { setDeviceStatus(path, .unavailable) }
            }
            applyPolicies()
            reportFigures()
            reportSlots()
        }
    }

    var awayAfter: Double { Double(settings.awayAfter.milliseconds) / 1000 }
}
