import ChestArguments
import ChestIO
import FoundationEssentials
import Glibc

/// The terminal of a full-screen view (`chest nav`): raw keys, the alternate screen, no cursor; put back as it
/// was on every way out, a signal included.
enum Terminal {
    // A signal handler can only reach globals; written once before the handlers are installed.
    nonisolated(unsafe) private static var saved = termios()
    nonisolated(unsafe) private static var active = false

    static let restoreSequence = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

    /// Whether standard input and output are a terminal.
    static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    /// Switches to raw keys and the alternate screen.
    static func enter() {
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        raw.c_cc.6 = 0  // VMIN: reads return what there is
        raw.c_cc.5 = 0  // VTIME
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        active = true
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGABRT, SIGSEGV, SIGBUS] {
            Glibc.signal(signal) { number in
                Terminal.restore()
                Glibc.signal(number, SIG_DFL)
                raise(number)
            }
        }
        write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
    }

    /// Puts the terminal back; safe to call more than once, and from a signal handler.
    static func restore() {
        guard active else { return }
        active = false
        restoreSequence.withCString { _ = Glibc.write(STDOUT_FILENO, $0, strlen($0)) }
        tcsetattr(STDIN_FILENO, TCSANOW, &saved)
    }

    /// Columns and rows; 80×24 when the terminal does not say.
    static var size: (columns: Int, rows: Int) { TerminalSize.ofStandardOutput() ?? (80, 24) }

    /// The keys typed within `milliseconds`, if any.
    static func keys(waiting milliseconds: Int32) -> [UInt8] {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, milliseconds) > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(STDIN_FILENO, &buffer, buffer.count)
        // End of input (the terminal went away) reads as q.
        return count > 0 ? Array(buffer[..<count]) : count == 0 ? [UInt8(ascii: "q")] : []
    }

    /// Draws `lines` from the top left, each cleared to its end, and clears below.
    static func draw(_ lines: [String]) {
        write("\u{1B}[H" + lines.map { $0 + "\u{1B}[0m\u{1B}[K" }.joined(separator: "\r\n") + "\u{1B}[J")
    }

    static func write(_ text: String) {
        // A terminal that went away takes the rest of the frame with it.
        try? FileDescriptor.standardOutput.writeAll(Array(text.utf8))
    }
}
