import ChestCore
import FoundationEssentials
import Glibc

/// The daemon's log: one line per event on stderr, with a journald priority prefix (sd-daemon(3)) under systemd.
package final class Log: Sendable {
    package enum Level: Int, Sendable, Comparable {
        case error = 3, warning = 4, notice = 5, info = 6, debug = 7
        package static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    private let threshold: Level
    private let journal: Bool
    private let sink: @Sendable (String) -> Void

    /// - Parameter sink: where finished lines go; stderr unless a test captures them.
    package init(verbose: Bool = false, sink: (@Sendable (String) -> Void)? = nil) {
        threshold = verbose ? .debug : .info
        journal = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] != nil
        self.sink =
            sink ?? { line in
                try? FileDescriptor.standardError.writeAll(Array(line.utf8))
            }
    }

    package func error(_ text: String) { write(.error, text) }
    package func warning(_ text: String) { write(.warning, text) }
    package func notice(_ text: String) { write(.notice, text) }
    package func info(_ text: String) { write(.info, text) }
    /// The text is built only when debug lines are logged: chestd logs one for every fix.
    package func debug(_ text: @autoclosure () -> String) {
        guard Level.debug <= threshold else { return }
        write(.debug, text())
    }

    /// The local time to the second, as `2026-11-23 14:12:01`.
    static func timestamp() -> String {
        let now = Zone.current.local(Date())
        return String(
            printf: "%04d-%02d-%02d %02d:%02d:%02d", now.year, now.month, now.day, now.hour, now.minute, now.second)
    }

    private func write(_ level: Level, _ text: String) {
        guard level <= threshold else { return }
        // A title or file name is untrusted: a newline in it must not start a line of its own.
        let text = TerminalText.escaped(text)
        // journald stamps its own lines (JOURNAL_STREAM says stderr goes there); a terminal or a file needs a time.
        let line = journal ? "<\(level.rawValue)>\(text)\n" : "\(Self.timestamp()) chestd: \(text)\n"
        sink(line)
    }
}
