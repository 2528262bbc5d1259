import BridgeCore
import LIFXModels

/// Turning the account's lights, groups and scenes into device events.
extension LIFXDriver {
    func descriptor(for light: LIFXLight) -> DeviceDescriptor {
        let mac = stride(from: 0, to: light.id.count, by: 2).map { offset -> String in
            let start = light.id.index(light.id.startIndex, offsetBy: offset)
            return String(light.id[start..<(light.id.index(start, offsetBy: 2, limitedBy: light.id.endIndex) ?? light.id.endIndex)])
        }.joined(separator: ":")
        return DeviceDescriptor(
            id: .lifx(light: light.id), kind: "light", manufacturer: "LIFX", model: light.product?.name ?? "LIFX light",
            modelID: light.product?.identifier, serialNumber: light.id,
            connections: light.id.count == 12 ? [["mac", mac]] : [], label: light.label,
            exposes: [.light(LightStateMapping.features(for: light.capabilities))], switchable: true)
    }

    func descriptor(for group: LIFXGroup) -> DeviceDescriptor {
        DeviceDescriptor(
            id: .lifx(group: group.id), kind: "group", manufacturer: "LIFX", model: "LIFX group", label: group.name,
            exposes: [.light(LightStateMapping.features(for: groupCapabilities(group)))], switchable: true)
    }

    func groupCapabilities(_ group: LIFXGroup) -> LIFXLight.Capabilities {
        let caps = group.members.compactMap { current[$0]?.capabilities }
        var merged = LIFXLight.Capabilities()
        merged.hasColor = caps.contains { $0.hasColor }
        merged.hasVariableColorTemp = caps.contains { $0.hasVariableColorTemp }
        merged.hasMultizone = !caps.isEmpty && caps.allSatisfy { $0.hasMultizone }
        merged.hasMatrix = !caps.isEmpty && caps.allSatisfy { $0.hasMatrix }
        merged.minKelvin = caps.map(\.minKelvin).min() ?? merged.minKelvin
        merged.maxKelvin = caps.map(\.maxKelvin).max() ?? merged.maxKelvin
        return merged
    }

    func announce(_ descriptor: DeviceDescriptor, native: LIFXNativeID?) {
        if let native { nativeIDs[descriptor.id] = native }
        guard announced[descriptor.id] != descriptor else { return }
        announced[descriptor.id] = descriptor
        sink.send(.discovered(descriptor))
    }

    /// Reports a device's status: `unavailable` when the cloud says it is not connected, otherwise `busy`
    /// once a write to it has been pending or in flight for `busyAfter`, and `ready` otherwise.
    func setAvailability(_ device: DeviceID, _ online: Bool) {
        var busy = false
        if case .light(let id)? = nativeIDs[device] {
            let now = ContinuousClock.now
            if slowWrites.note(id, waiting: isBusy(device), now: now) { slowWake.yield() }
            busy = slowWrites.isSlow(id, now: now)
        }
        let status: DeviceStatus = !online ? .unavailable : (busy ? .busy : .ready)
        guard statuses[device] != status else { return }
        statuses[device] = status
        sink.send(.status(device, status))
    }

    /// Re-derives the status of these lights (after a write was queued, sent or settled).
    func refreshStatus(_ lightIDs: [String]) {
        for id in lightIDs {
            if let light = current[id] {
                setAvailability(.lifx(light: id), light.connected)
            } else {
                // A light that left the account while its write waited: nothing shows its status any more.
                slowWrites.note(id, waiting: false, now: .now)
            }
        }
    }

    /// Names lights whose write turned slow, so they show `busy`; the one timer of that status.
    func slowLoop() async {
        for await _ in slowWakeups {
            while let deadline = slowWrites.nextDeadline {
                guard (try? await Task.sleep(until: deadline, clock: .continuous)) != nil else { return }
                refreshStatus(slowWrites.takeDue(now: .now))
            }
        }
    }

    /// Whether a write for this light is queued or in flight; groups and scenes are never busy themselves.
    private func isBusy(_ device: DeviceID) -> Bool {
        guard case .light(let id)? = nativeIDs[device] else { return false }
        // The light's own selector is looked up; only groups and scenes (a few) are expanded to their lights.
        return writing.contains(id) || pending.contains("id:" + id)
            || pending.selectors.contains { !$0.hasPrefix("id:") && lightIDs(for: $0).contains(id) }
    }

    /// Publishes a device's state unless it differs from the last one only by quantisation noise.
    func publish(_ device: DeviceID, _ state: [String: JSONValue]) {
        if let previous = published[device], LightStateMapping.nearlyEqual(previous, state) { return }
        published[device] = state
        sink.send(.state(device, state))
    }

    /// Re-publishes the given lights and every group containing one of them.
    func publishAffected(_ lightIDs: [String]) {
        for id in lightIDs {
            if let light = current[id] { publish(.lifx(light: id), LightStateMapping.state(of: light)) }
        }
        let touched = Set(lightIDs)
        let stale = groups.values.filter { !touched.isDisjoint(with: $0.members) }.map(\.id)
        guard !stale.isEmpty else { return }
        staleGroups.formUnion(stale)
        groupWake.yield()
    }

    /// Publishes the groups whose members changed, at most every `groupPause`: a group's state is derived from all
    /// its members, and a burst of commands to them (a slider, a scene) would otherwise publish it once per command.
    func groupLoop() async {
        for await _ in groupWakeups {
            guard (try? await Task.sleep(for: Self.groupPause)) != nil else { return }
            let stale = staleGroups
            staleGroups = []
            for id in stale.sorted() { if let group = groups[id] { publishGroup(group) } }
        }
    }

    /// How long a group's state may lag its members' while they change.
    static let groupPause = Duration.milliseconds(100)

    /// A group's state: on if any member is on; brightness the mean of the lit members; colour of the first lit one.
    func publishGroup(_ group: LIFXGroup) {
        let members = group.members.compactMap { current[$0] }
        guard var lead = members.first(where: \.power) ?? members.first else { return }
        let lit = members.filter(\.power)
        let pool = lit.isEmpty ? members : lit
        lead.brightness = pool.map(\.brightness).reduce(0, +) / Double(pool.count)
        lead.power = !lit.isEmpty
        lead.label = group.name
        lead.connected = members.contains(where: \.connected)
        lead.product = LIFXLight.Product(name: "LIFX group", capabilities: groupCapabilities(group))
        var state = LightStateMapping.state(of: lead)
        state["members"] = .array(members.map { .string($0.label) })
        state["last_seen"] = nil
        publish(.lifx(group: group.id), state)
        setAvailability(.lifx(group: group.id), lead.connected)
    }

    /// The scenes device: one Home Assistant scene entity per LIFX scene.
    func publishScenes() {
        guard let id = accountDeviceID else { return }
        let exposes = scenes.map { scene in
            var expose = Expose.scene(
                objectID: "scene_" + String(scene.uuid.filter { $0.isLetter || $0.isNumber }.prefix(12)).lowercased(),
                name: scene.name, value: scene.uuid)
            // `/set` also accepts the scene's name; Home Assistant sends the uuid (the first value).
            expose.values.append(scene.name)
            return expose
        }
        announce(
            DeviceDescriptor(id: id, kind: "scenes", manufacturer: "LIFX", model: "LIFX scenes", label: "LIFX scenes", exposes: exposes),
            native: nil)
        publish(id, ["scenes": .array(scenes.map { .string($0.name) }), "last_scene": lastScene.map(JSONValue.string) ?? .null])
        setAvailability(id, true)
    }
}
