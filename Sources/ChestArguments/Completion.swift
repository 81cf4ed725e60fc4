/// What a shell offers for a value when the user presses Tab.
package enum Completion: Sendable, Hashable {
    case none
    /// File names; with an extension (`locked`), only those files and directories.
    case files(extension: String? = nil)
    case directories
    case words([String])
    /// `KEY=VALUE` words: the keys with `=` first, then the values listed for the key typed (none for others).
    case keyValue(keys: [String], values: [String: [String]])
    /// A POSIX shell pipeline whose output lines are the words, such as IDs asked of a running daemon.
    case shellCommand(String)
}
