import CDBus
import Glibc

/// The interface and member of the last signal routed, and the object paths seen lately, kept by the loop
/// thread: nearly every signal of a burst repeats them, and each new `String` of that length is an allocation
/// and a UTF-8 check.
struct SignalNames {
    private var interface = ""
    private var member = ""
    /// Paths by a hash of their text, one per slot: fixed in size, so a path whose slot another took is only
    /// made again. A device's path comes back with each of its adverts.
    private var paths = [String](repeating: "", count: 1024)

    /// The message's object path, reusing the text of the path last seen in its slot when it is the same.
    mutating func path(_ message: MessageRef) -> String? {
        guard let text = dbus_message_get_path(message.pointer) else { return nil }
        // FNV-1a over the bytes up to the terminating NUL.
        var hash: UInt32 = 2_166_136_261
        var index = 0
        while text[index] != 0 {
            hash = (hash ^ UInt32(UInt8(bitPattern: text[index]))) &* 16_777_619
            index += 1
        }
        let slot = Int(hash % UInt32(paths.count))
        Self.reuse(&paths[slot], text)
        return paths[slot]
    }

    /// The message's interface and member, reusing the last ones' text when they are the same.
    mutating func read(_ message: MessageRef) -> (interface: String, member: String)? {
        guard let interface = dbus_message_get_interface(message.pointer), let member = dbus_message_get_member(message.pointer)
        else { return nil }
        Self.reuse(&self.interface, interface)
        Self.reuse(&self.member, member)
        return (self.interface, self.member)
    }

    private static func reuse(_ last: inout String, _ text: UnsafePointer<CChar>) {
        if last.withCString({ strcmp($0, text) }) != 0 { last = String(cString: text) }
    }
}

/// Subscriptions and the current owners of the well-known names they follow. The loop thread reads it for
/// every received signal; subscribing tasks change it.
struct SignalRouter {
    struct Subscription {
        let rule: DBusMatchRule
        let sink: any DBusSignalSink
    }

    /// What is known about a name's owner: nothing yet, or its unique name (nil: no owner).
    enum Owner: Equatable {
        case unknown
        case known(String?)
    }

    struct NameWatch {
        /// How many subscriptions and watchers follow the name; each added one NameOwnerChanged match.
        var users = 0
        var owner = Owner.unknown
        var observers: [UInt64: AsyncStream<String?>.Continuation] = [:]
    }

    var open = true
    var nextID: UInt64 = 0
    var subscriptions: [UInt64: Subscription] = [:]
    var names: [String: NameWatch] = [:]

    mutating func newID() -> UInt64 {
        defer { nextID += 1 }
        return nextID
    }

    func currentOwner(of name: String) -> String? {
        if case .known(let owner) = names[name]?.owner { return owner }
        return nil
    }
}

extension ConnectionCore {
    /// Registers a subscription (before its match rule is added, so nothing that matches is missed).
    func addSubscription(_ rule: DBusMatchRule, sink: any DBusSignalSink) -> UInt64? {
        router.withLock { router in
            guard router.open else { return nil }
            let id = router.newID()
            router.subscriptions[id] = SignalRouter.Subscription(rule: rule, sink: sink)
            return id
        }
    }

    func removeSubscription(_ id: UInt64) { router.withLock { _ = $0.subscriptions.removeValue(forKey: id) } }

    /// Starts following a name's owner; an observer is told the owner at once if it is already known.
    func retainName(_ name: String, observer: AsyncStream<String?>.Continuation?) -> UInt64? {
        let result = router.withLock { router -> (UInt64, SignalRouter.Owner)? in
            guard router.open else { return nil }
            let id = router.newID()
            router.names[name, default: SignalRouter.NameWatch()].users += 1
            if let observer { router.names[name]?.observers[id] = observer }
            return (id, router.names[name]?.owner ?? .unknown)
        }
        if let observer, case .known(let owner)? = result?.1 { observer.yield(owner) }
        return result?.0
    }

    /// Stops following a name for one user; the last one forgets it.
    func releaseName(_ name: String, id: UInt64) {
        router.withLock { router in
            guard var watch = router.names[name] else { return }
            watch.users -= 1
            watch.observers[id] = nil
            router.names[name] = watch.users > 0 ? watch : nil
        }
    }

    /// Records an owner found by `GetNameOwner`, unless a NameOwnerChanged already told a fresher one. The
    /// question was asked after the signal's match rule was in place, so any later change arrives as a signal.
    func resolveOwner(_ name: String, owner: String?) {
        setOwner(name, owner: owner, onlyIfUnknown: true)
    }

    private func setOwner(_ name: String, owner: String?, onlyIfUnknown: Bool) {
        let observers = router.withLock { router -> [AsyncStream<String?>.Continuation] in
            guard let watch = router.names[name], !(onlyIfUnknown && watch.owner != .unknown) else { return [] }
            router.names[name]?.owner = .known(owner)
            return Array(watch.observers.values)
        }
        for observer in observers { observer.yield(owner) }
    }

    /// Loop thread: updates name owners from NameOwnerChanged, then hands the signal, read once, to every
    /// subscription whose rule matches.
    func route(_ message: MessageRef, names: inout SignalNames) {
        guard let path = names.path(message), let (interface, member) = names.read(message) else { return }
        let header = DBusSignalHeader(sender: message.sender ?? "", path: path, interface: interface, member: member)
        let busName = DBusMatchRule.busName
        if header.sender == busName, interface == busName, member == "NameOwnerChanged",
            let body = try? message.read(operation: "read NameOwnerChanged"), body.count == 3,
            let name = body[0].string, let newOwner = body[2].string
        {
            setOwner(name, owner: newOwner.isEmpty ? nil : newOwner, onlyIfUnknown: false)
        }
        // The tables as they are now: taken under the lock without a copy (a change made meanwhile copies them),
        // and matched outside it, with no array of the matching sinks made for every signal.
        let table = router.withLock { $0 }
        var rest: [any DBusSignalSink] = []
        for subscription in table.subscriptions.values {
            // The first argument is read only for a rule that names one (NameOwnerChanged watches), not per advert.
            guard subscription.rule.matches(header, arg0: { message.firstStringArgument }, owner: { table.currentOwner(of: $0) })
            else { continue }
            // A sink that reads the body itself takes it so; the others share one reading into values.
            if var body = DBusBodyReader(message: message.pointer), subscription.sink.receive(header, body: &body) { continue }
            rest.append(subscription.sink)
        }
        guard !rest.isEmpty else { return }
        do {
            let body = try message.read(operation: "read signal \(interface).\(member)")
            let signal = DBusSignal(sender: header.sender, path: path, interface: interface, member: member, body: body)
            for sink in rest { sink.receive(signal) }
        } catch {
            logger.debug("D-Bus signal dropped", metadata: ["error": "\(error)"])
        }
    }

    /// Loop thread, at the end: finishes every signal stream and owner watch.
    func finishSignals() {
        let (sinks, observers) = router.withLock { router in
            router.open = false
            defer {
                router.subscriptions = [:]
                router.names = [:]
            }
            return (router.subscriptions.values.map(\.sink), router.names.values.flatMap(\.observers.values))
        }
        for sink in sinks { sink.finish() }
        for observer in observers { observer.finish() }
    }
}
