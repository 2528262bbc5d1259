import CDBus
import Glibc

extension EventLoop {
    /// Polls the wakeup pipe and libdbus's enabled watches until one is ready or the next timer expires,
    /// then lets libdbus handle what happened.
    func waitForActivity() {
        let (watches, nextDeadline) = tables.snapshot()
        var fds = [pollfd(fd: core.wakeup.readFD, events: Int16(POLLIN), revents: 0)]
        var polled: [LoopPointer] = []
        for watch in watches where dbus_watch_get_enabled(watch.raw) != 0 {
            let fd = dbus_watch_get_unix_fd(watch.raw)
            guard fd >= 0 else { continue }
            let flags = dbus_watch_get_flags(watch.raw)
            var events: Int16 = 0
            if flags & DBUS_WATCH_READABLE.rawValue != 0 { events |= Int16(POLLIN) }
            if flags & DBUS_WATCH_WRITABLE.rawValue != 0 { events |= Int16(POLLOUT) }
            fds.append(pollfd(fd: fd, events: events, revents: 0))
            polled.append(watch)
        }
        var timeout: Int32 = -1
        if dbus_connection_get_dispatch_status(connection) == DBUS_DISPATCH_DATA_REMAINS {
            timeout = 0
        } else if let nextDeadline {
            let remaining = nextDeadline - ContinuousClock.now
            // Rounded up, so the poll never wakes just before the timer is due.
            let (seconds, attoseconds) = remaining.components
            let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
            timeout = Int32(clamping: max(0, milliseconds + 1))
        }
        guard poll(&fds, nfds_t(fds.count), timeout) >= 0 else { return }
        if fds[0].revents != 0 { core.wakeup.drain() }
        for (index, watch) in polled.enumerated() {
            let revents = Int32(fds[index + 1].revents)
            guard revents != 0, tables.contains(watch: watch) else { continue }
            var flags: UInt32 = 0
            if revents & POLLIN != 0 { flags |= DBUS_WATCH_READABLE.rawValue }
            if revents & POLLOUT != 0 { flags |= DBUS_WATCH_WRITABLE.rawValue }
            if revents & POLLHUP != 0 { flags |= DBUS_WATCH_HANGUP.rawValue }
            if revents & POLLERR != 0 { flags |= DBUS_WATCH_ERROR.rawValue }
            _ = dbus_watch_handle(watch.raw, flags)
        }
        for timer in tables.expired(at: .now) where tables.contains(timer: timer) {
            _ = dbus_timeout_handle(timer.raw)
            // Still there means it repeats; removed means libdbus is done with it (a pending call's timeout).
            if tables.contains(timer: timer) { tables.arm(timer) }
        }
    }
}
