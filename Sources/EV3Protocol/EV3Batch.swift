/// Several instructions sent as one direct command, with the reply's global memory laid out by the
/// batch and each query's results read back through a typed handle.
///
/// The firmware checks a whole direct command before it runs any of it: one opcode it does not know,
/// or a DATA16/DATA32/DATAF output at an unaligned global offset, and the whole batch answers `04`
/// with nothing done. So:
/// - only instructions from this module's catalogue can be added, never raw bytes;
/// - offsets are never chosen by the caller: the batch places 4-byte values first, then 2-byte
///   values, then bytes and strings (`c_com.h`: "float/32bits first and 8 bits last"). Every slot
///   is a whole number of its own width, so each class ends aligned for the next and no output can
///   land unaligned;
/// - a batch is a value a caller fills per concern (the brick, each port), so polls split along
///   those lines: `EV3PollPlan` keeps the groups in one command while it succeeds and, after an
///   error reply, finds the group that fails and polls it alone, so one odd port cannot blank the
///   others. Reads pass TYPE 0 and MODE −1 (keep), and an empty port reads as sentinels, not errors.
public struct EV3Batch: Sendable {
    private var instructions: [EV3Instruction] = []
    /// Per instruction, the index of its first slot in `slots`.
    private var firstSlots: [Int] = []
    private var slots: [EV3GlobalSlot] = []

    /// An empty batch.
    public init() {}

    /// Whether nothing was added; the firmware refuses an empty command.
    public var isEmpty: Bool { instructions.isEmpty }

    /// The instructions' names in order, for logs.
    public var names: [String] { instructions.map(\.name) }

    /// Bytes of global memory the reply carries.
    public var globalSize: Int { slots.reduce(0) { $0 + $1.size } }

    /// Adds an instruction that has no outputs.
    public mutating func append(_ instruction: EV3Instruction) {
        firstSlots.append(slots.count)
        instructions.append(instruction)
        slots += instruction.outputs
    }

    /// Adds a query and returns the handle its results are read with.
    @discardableResult
    public mutating func append<Value>(_ query: EV3Query<Value>) -> EV3Handle<Value> {
        let first = slots.count
        append(query.instruction)
        return EV3Handle(slots: first..<slots.count, shape: query.instruction.outputs, decode: query.decode)
    }

    /// The global offset of every slot, in the order the slots were added.
    func offsets() -> [Int] {
        // A stable sort by descending width: equal widths keep their order, so layouts are predictable.
        let order = slots.indices.sorted { (slots[$0].width, $1) > (slots[$1].width, $0) }
        var offsets = [Int](repeating: 0, count: slots.count)
        var next = 0
        for index in order {
            offsets[index] = next
            next += slots[index].size
        }
        return offsets
    }

    /// The global offsets of a handle's outputs in this batch, or `nil` if it was made by another.
    public func offsets<Value>(of handle: EV3Handle<Value>) -> [Int]? {
        guard owns(handle) else { return nil }
        return Array(offsets()[handle.slots])
    }

    /// The direct command carrying every instruction; throws when the batch is empty or larger than one
    /// command may be (then split it).
    public func command(
        counter: UInt16, replyRequested: Bool = true, style: EV3EncodingStyle = .compact
    ) throws(EV3EncodingError) -> EV3DirectCommand {
        try EV3DirectCommand(
            counter: counter, replyRequested: replyRequested, globalSize: globalSize, bytecode: bytecode(style: style))
    }

    /// Every instruction encoded, outputs at their assigned offsets.
    func bytecode(style: EV3EncodingStyle) -> [UInt8] {
        let offsets = offsets()
        var bytecode: [UInt8] = []
        for (instruction, first) in zip(instructions, firstSlots) {
            let own = Array(offsets[first..<first + instruction.outputs.count])
            instruction.encode(into: &bytecode, style: style, offsets: own)
        }
        return bytecode
    }

    /// Reads a query's results from a reply to this batch's command. Throws when the reply is an error
    /// (its memory is not trustworthy), carries another amount of memory, or the handle is not this
    /// batch's. Empty ports read as `nil` inside the value, not as errors.
    public func read<Value>(_ handle: EV3Handle<Value>, from reply: EV3DirectReply) throws(EV3DecodingError) -> Value {
        guard owns(handle) else { throw .foreignHandle }
        guard reply.status == .ok else { throw .replyError(counter: reply.counter) }
        guard reply.globals.count == globalSize else {
            throw .globalsSize(expected: globalSize, got: reply.globals.count)
        }
        let offsets = offsets()
        let pieces = handle.slots.map { reply.globals[offsets[$0]..<offsets[$0] + slots[$0].size] }
        return handle.decode(pieces)
    }

    private func owns<Value>(_ handle: EV3Handle<Value>) -> Bool {
        handle.slots.upperBound <= slots.count && Array(slots[handle.slots]) == handle.shape
    }
}
