@preconcurrency import Dispatch
import Glibc
import Synchronization

/// One signal as it arrived: its number and, when a process sent it with kill(2), who sent it.
package struct ReceivedSignal: Sendable, Equatable {
    package var number: Int32
    /// The sender's pid, nil when the kernel raised the signal (a terminal's ^C says so too).
    package var senderPID: pid_t?
    /// The sender's name as /proc/PID/comm gave it just after the signal came, when it could still be read.
    package var senderName: String?

    package init(number: Int32, senderPID: pid_t? = nil, senderName: String? = nil) {
        self.number = number
        self.senderPID = senderPID
        self.senderName = senderName
    }

    /// "SIGTERM from pid 4711 (systemd)": how a log names a stop, so one nobody meant can be traced to its sender.
    package var description: String {
        let name = Self.names[number] ?? "signal \(number)"
        guard let senderPID else { return name }
        return "\(name) from pid \(senderPID)" + (senderName.map { " (\($0))" } ?? "")
    }

    private static let names: [Int32: String] = [SIGTERM: "SIGTERM", SIGINT: "SIGINT", SIGHUP: "SIGHUP"]
}

/// SIGTERM, SIGINT and SIGHUP as callbacks, taken by `sigwaitinfo` on a thread of their own so that each says who
/// sent it (Dispatch's signal sources do not).
///
/// The signals must be held first (`hold`, first thing in `main`, before any other thread starts): every thread
/// then inherits the block, so a signal sent at any moment of start-up waits, pending, until the thread takes it.
/// Ignoring them instead (SIG_IGN) until the thread runs lost a SIGTERM sent just after start: an ignored signal is
/// discarded when it is sent (docs/ARCHITECTURE.md "Threads").
package final class Signals: Sendable {
    /// Sent to the waiting thread alone (`pthread_kill`) to end it: nothing else in chestd uses SIGUSR2.
    private static let stopSignal = SIGUSR2
    private let thread = Mutex<pthread_t?>(nil)

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
    package init(_ signals: [Int32], handler: @escaping @Sendable (ReceivedSignal) -> Void) {
        signal(SIGPIPE, SIG_IGN)
        Self.hold(signals)
        let started = DispatchSemaphore(value: 0)
        OSThread.start(name: "chest-signals") { [self] in
            var set = sigset_t()
            sigemptyset(&set)
            for number in signals + [Self.stopSignal] { sigaddset(&set, number) }
            pthread_sigmask(SIG_BLOCK, &set, nil)
            thread.withLock { $0 = pthread_self() }
            started.signal()
            while true {
                var info = siginfo_t()
                let number = sigwaitinfo(&set, &info)
                if number == Self.stopSignal { return }
                guard number > 0 else { continue }
                handler(Self.received(number, info))
            }
        }
        started.wait()
    }

    /// Ends the thread that takes the signals; they stay held, pending, for nobody.
    package func stop() {
        thread.withLock { thread in
            if let running = thread { pthread_kill(running, Self.stopSignal) }
            thread = nil
        }
    }

    private static func received(_ number: Int32, _ info: siginfo_t) -> ReceivedSignal {
        // SI_USER and SI_QUEUE carry the sender; a signal the kernel raised (SI_KERNEL, a terminal's) does not.
        guard info.si_code == SI_USER || info.si_code == SI_QUEUE else { return ReceivedSignal(number: number) }
        let pid = info._sifields._kill.si_pid
        let name = ProcFile.read("/proc/\(pid)/comm").flatMap {
            String(decoding: $0, as: UTF8.self).split(separator: "\n").first.map(String.init)
        }
        return ReceivedSignal(number: number, senderPID: pid, senderName: name)
    }
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
