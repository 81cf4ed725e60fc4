@preconcurrency import Dispatch
import Glibc

/// SIGTERM, SIGINT and SIGHUP as callbacks on a queue, through Dispatch signal sources (on Linux, a `signalfd`
/// read by Dispatch's manager thread).
///
/// The signals must be held first (`hold`, first thing in `main`, before any other thread starts): every thread
/// then inherits the block, so a signal sent at any moment of start-up waits, pending, until the source reads it.
/// Ignoring them instead (SIG_IGN) until the source is armed lost a SIGTERM sent just after start: Dispatch arms
/// the source later, on its own thread, and an ignored signal is discarded when it is sent (docs/ARCHITECTURE.md
/// "Threads").
package final class Signals: Sendable {
    private let sources: [any DispatchSourceSignal]

    /// Blocks `signals` in the calling thread and in every thread it starts from now on. Call it on the main thread
    /// before any other thread exists: a thread that was already running could still take a signal.
    package static func hold(_ signals: [Int32]) {
        var set = sigset_t()
        sigemptyset(&set)
        for number in signals { sigaddset(&set, number) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Routes `signals`, held by `hold` before, and ignores SIGPIPE: chestd's one writer that cannot say
    /// `MSG_NOSIGNAL` is libgps, whose write(2) to a gpsd that just went would otherwise end the daemon
    /// (docs/ARCHITECTURE.md "Threads"). Never sets a routed signal to SIG_IGN: that would discard one already
    /// pending.
    package init(_ signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
        signal(SIGPIPE, SIG_IGN)
        Self.hold(signals)
        let queue = DispatchQueue(label: "chest.signals")
        sources = signals.map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handler(number) }
            source.resume()
            return source
        }
    }

    package func stop() { sources.forEach { $0.cancel() } }
}

/// A one-shot timer aimed at a wall-clock instant, re-aimed whenever the instant changes: how time locks open
/// without a polling loop.
package final class WakeTimer: Sendable {
    private let source: any DispatchSourceTimer

    package init(handler: @escaping @Sendable () -> Void) {
        source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "chest.wake"))
        source.setEventHandler(handler: handler)
        source.schedule(wallDeadline: .distantFuture)
        source.resume()
    }

    /// Fires once at `date` (system clock, so it follows clock changes), or never when nil.
    package func aim(at seconds: Double?) {
        guard let seconds else {
            source.schedule(wallDeadline: .distantFuture)
            return
        }
        let whole = seconds.rounded(.down)
        let spec = timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1e9))
        source.schedule(wallDeadline: DispatchWallTime(timespec: spec), leeway: .milliseconds(20))
    }

    package func stop() { source.cancel() }
}

/// A timer that fires every `interval` seconds until stopped (systemd's watchdog keep-alive).
package final class RepeatingTimer: Sendable {
    private let source: any DispatchSourceTimer

    package init(interval: Double, handler: @escaping @Sendable () -> Void) {
        source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "chest.repeating"))
        source.setEventHandler(handler: handler)
        source.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(100))
        source.resume()
    }

    package func stop() { source.cancel() }
}
