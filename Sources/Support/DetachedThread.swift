import Glibc

/// A thread of its own for a blocking C loop (libdbus's dispatch, libmosquitto's network loop, a socket),
/// started detached and named for `top` and debuggers. Foundation's `Thread` does the same but is the one
/// thing these modules would need full Foundation for.
public enum DetachedThread {
    /// Runs `body` on a new detached thread; `name` is cut to the 15 bytes Linux keeps.
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(name: String(decoding: name.utf8.prefix(15), as: UTF8.self), body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            let body = Unmanaged<Body>.fromOpaque(raw).takeRetainedValue()
            body.nameThisThread()
            body.run()
            return nil
        }, context)
        // Only when the process is out of threads or memory, where Foundation's Thread stops the process too.
        precondition(result == 0, "cannot start the \(name) thread: pthread_create returned \(result)")
        pthread_detach(thread)
    }

    private final class Body: Sendable {
        let name: String
        let run: @Sendable () -> Void
        init(name: String, _ run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }

        /// Names the calling thread through /proc (pthread_setname_np is not in Swift's Glibc module).
        func nameThisThread() {
            let descriptor = open("/proc/thread-self/comm", O_WRONLY)
            guard descriptor >= 0 else { return }
            _ = name.utf8CString.withUnsafeBufferPointer { Glibc.write(descriptor, $0.baseAddress, $0.count - 1) }
            close(descriptor)
        }
    }
}
