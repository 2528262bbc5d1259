import ServiceLifecycle

@_silgen_name("malloc_trim") private func mallocTrim(_ pad: Int) -> Int32

/// Hands freed heap memory back to the system every few seconds. glibc keeps what a burst freed (an inventory
/// of a thousand devices, a large D-Bus reply) in its arenas otherwise, and the resident size stays at the
/// burst's peak: with 1,000 BLE devices that is about 8 MB that nothing uses.
struct MemoryTrimmer: Service {
    var interval: Duration = .seconds(10)

    func run() async {
        await cancelWhenGracefulShutdown {
            while (try? await Task.sleep(for: interval)) != nil {
                _ = mallocTrim(0)
            }
        }
    }
}
