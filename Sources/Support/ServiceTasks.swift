/// Work that an actor starts on its own (a connect, an interview, a retry) as child tasks of its service's task
/// group, instead of unstructured tasks that outlive the service: `run()`, called inside that group, starts each
/// job at once and cancels those still running when the service ends.
///
/// Jobs wait here only between `start` and the loop picking them up; at most `limit` do, and a job beyond
/// that is refused, so a flood of starts cannot queue without bound.
public final class ServiceTasks: Sendable {
    /// One job.
    public typealias Job = @Sendable () async -> Void

    private let jobs: AsyncStream<Job>
    private let continuation: AsyncStream<Job>.Continuation
    private let serial: Bool

    /// Jobs that may wait to be started at once; `serial` runs them one after another in the order started.
    public init(limit: Int = 256, serial: Bool = false) {
        (jobs, continuation) = AsyncStream.makeStream(of: Job.self, bufferingPolicy: .bufferingOldest(limit))
        self.serial = serial
    }

    /// Starts `job` as a child of the group running `run()`; false when it was refused (the service has ended,
    /// or `limit` jobs already wait).
    @discardableResult
    public func start(_ job: @escaping Job) -> Bool {
        if case .enqueued = continuation.yield(job) { return true }
        return false
    }

    /// Runs the jobs until cancelled, then cancels those still running and waits for them; once only.
    public func run() async {
        await withDiscardingTaskGroup { group in
            for await job in jobs {
                if serial { await job() } else { group.addTask { await job() } }
            }
            group.cancelAll()
        }
        continuation.finish()
    }
}
