/// Which poll groups (the brick, each port: whatever a caller builds one `EV3Batch` part for) travel
/// together in one direct command.
///
/// The firmware refuses or fails a direct command as a whole, so one group it does not accept (an
/// opcode an older firmware lacks, a device that fails its read) would blank every other group polled
/// with it. The plan polls all groups in one command while that works. When a command holding several
/// groups gets an error reply, the next cycle polls every group alone (one probe cycle); groups that
/// fail alone are isolated and from then on polled alone, the rest go back into one command. An
/// isolated group rejoins when the caller readmits it, e.g. after its port's device changed. A
/// transient error (the brick was busy) costs one probe cycle and changes nothing.
public struct EV3PollPlan<Group: Hashable & Sendable>: Sendable {
    /// Every group, in the caller's order.
    public private(set) var groups: [Group]
    /// Groups polled alone because they failed alone.
    public private(set) var isolated: Set<Group> = []
    /// Whether the next cycle polls every group alone to find the one that fails.
    public private(set) var isProbing = false

    /// Starts with every group in one request.
    public init(groups: [Group]) {
        self.groups = groups
    }

    /// The requests of the next cycle, each a list of groups to put into one direct command.
    public var requests: [[Group]] {
        if isProbing { return groups.map { [$0] } }
        let shared = groups.filter { !isolated.contains($0) }
        return (shared.isEmpty ? [] : [shared]) + groups.filter { isolated.contains($0) }.map { [$0] }
    }

    /// Records a cycle: the requests whose reply was an error (or never came as a valid reply).
    public mutating func record(failed: [[Group]]) {
        if isProbing {
            isProbing = false
            for request in failed where request.count == 1 { isolated.insert(request[0]) }
            return
        }
        for request in failed {
            if request.count == 1 {
                isolated.insert(request[0])
            } else if !request.isEmpty {
                isProbing = true
            }
        }
    }

    /// Puts an isolated group back into the shared request, e.g. after its device was replaced.
    public mutating func readmit(_ group: Group) {
        isolated.remove(group)
    }

    /// Replaces the groups (ports appeared or vanished); isolation is kept for groups that remain.
    public mutating func update(groups: [Group]) {
        self.groups = groups
        isolated.formIntersection(groups)
    }
}
