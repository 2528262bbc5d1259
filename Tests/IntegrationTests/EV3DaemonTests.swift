import Testing

/// The EV3 tests that run the daemon against a simulated brick, one at a time: each starts a broker, a daemon
/// and a brick, and all of them at once would starve the other tests' processes on a small machine.
@Suite("EV3 through the daemon", .serialized)
enum EV3DaemonTests {}
