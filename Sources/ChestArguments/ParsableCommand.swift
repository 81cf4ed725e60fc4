import FoundationEssentials
import Glibc

/// A program or one of its subcommands, declared once: its name, what it does and its table of parameters.
/// The parser, the help text, the usage lines and the shell completion scripts are all read from here.
package protocol ParsableCommand {
    /// The word that runs it: the program's name, or the subcommand's.
    static var name: String { get }
    /// One line for the command list and the top of the help.
    static var abstract: String { get }
    /// Paragraphs after the parameters in the help, one a line, wrapped to the terminal; a line that starts with a
    /// space (a table row, an example to copy) is kept as written. Empty by default.
    static var discussion: String { get }
    /// Flags, options and positionals; `-h`/`--help` is implied.
    static var parameters: [Parameter] { get }
    /// The usage lines after the command's path; made from `parameters` unless the grammar says more (order,
    /// alternatives).
    static var synopses: [String] { get }
    /// Commands that follow this one's options; for a program such as `chest`, empty for a leaf.
    static var subcommands: [any ParsableCommand.Type] { get }

    /// Reads what the parser found; throws for values it cannot accept.
    init(_ values: ParsedValues) throws(UsageError)
}

extension ParsableCommand {
    package static var discussion: String { "" }
    package static var parameters: [Parameter] { [] }
    package static var synopses: [String] { [HelpText.synopsis(of: self)] }
    package static var subcommands: [any ParsableCommand.Type] { [] }

    /// Parses a program's arguments (without its name): prints the help and exits 0 when asked for it, prints the
    /// error and the usage line and exits 64 when they cannot be understood.
    package static func parseOrExit(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Self {
        do {
            let invocation = try ArgumentParser.parse(arguments, root: self)
            if let help = invocation.help {
                print(help)
                exit(0)
            }
            return try Self(invocation.path[0])
        } catch {
            let usage = error.isUsage ? "" : "\nusage: " + HelpText.usageLines(of: self, path: [name])[0]
            writeStandardError("\(name): \(error)\(usage)\n")
            exit(UsageError.exitStatus)
        }
    }
}

/// Writes every byte of `text` to standard error, unbuffered, as `FileHandle.standardError.write` did.
func writeStandardError(_ text: String) {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return }
        offset += written
    }
}

/// The implied help flag, shared by every command.
let helpParameter = Parameter.flag("--help", "-h", help: "show this help")

extension ParsableCommand {
    /// The subcommand called `name`, or the usage error for a mistyped one.
    package static func subcommand(named name: String) throws(UsageError) -> any ParsableCommand.Type {
        guard let command = subcommands.first(where: { $0.name == name }) else {
            throw ArgumentParser.unknownCommand(name, of: self)
        }
        return command
    }
}
