/// Writes one line to stderr: how every executable says what went wrong.
package func printError(_ text: String) {
    try? FileDescriptor.standardError.writeAll(Array((text + "\n").utf8))
}
