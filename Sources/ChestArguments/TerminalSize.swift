import Glibc

/// The size of the terminal standard output is, as the kernel reports it (TIOCGWINSZ).
package enum TerminalSize {
    /// Columns and rows; nil when standard output is not a terminal or the terminal does not say.
    package static func ofStandardOutput() -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0,
            size.ws_row > 0
        else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }
}
