import FoundationEssentials

/// Shell completion scripts made from a program's declarations: `chest --generate-completion-script bash`.
package enum CompletionScript {
    package enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    /// The script for `shell`, completing `root`'s options, subcommands and their values.
    package static func script(for root: any ParsableCommand.Type, shell: Shell) -> String {
        let levels = levels(of: root, path: [])
        switch shell {
        case .bash: return BashCompletion(program: root.name, levels: levels).script
        case .zsh: return ZshCompletion(program: root.name, levels: levels).script
        case .fish: return FishCompletion(program: root.name, levels: levels).script
        }
    }

    /// The program and every subcommand below it, each with its path of names after the program's.
    static func levels(of command: any ParsableCommand.Type, path: [String]) -> [CompletionLevel] {
        [CompletionLevel(path: path, command: command)]
            + command.subcommands.flatMap { levels(of: $0, path: path + [$0.name]) }
    }

    /// `'it'\''s'`: one POSIX single-quoted word.
    static func quoted(_ text: String) -> String {
        "'" + text.replacing("'", with: #"'\''"#) + "'"
    }
}

/// One command as the completion scripts see it.
struct CompletionLevel {
    let path: [String]
    let command: any ParsableCommand.Type

    var key: String { path.joined(separator: " ") }
    var options: [Parameter] { command.parameters.filter(\.isOption) + [helpParameter] }
    var visibleOptions: [Parameter] { options.filter { !$0.isHidden } }
    var positionals: [Parameter] { command.parameters.filter { !$0.isOption } }

    /// Each positional with the first index it takes and how many it may take.
    var positionalSlots: [(parameter: Parameter, start: Int, count: Int)] {
        var start = 0
        return positionals.map { parameter in
            let count = parameter.arity?.maximum ?? 1
            defer { start = count == .max ? start : start + count }
            return (parameter, start, count)
        }
    }
}
