/// The one parser of every program: `--opt value`, `--opt=value`, `-o value`, `--` ends the options, and
/// `-h`/`--help` anywhere before it asks for the help of the command it follows. Options belong to the command
/// they follow; a program with subcommands reads its own options up to the first word that is not one.
package enum ArgumentParser {
    /// Reads the arguments after the program's name.
    package static func parse(_ arguments: [String], root: any ParsableCommand.Type) throws(UsageError) -> Invocation {
        var rest = arguments[...]
        var command = root
        var names = [root.name]
        var path: [ParsedValues] = []
        var commands = [root]
        var firstError: UsageError?
        while true {
            let level = Level(command: command, names: names)
            let values = level.scan(&rest)
            // Help wins over any mistake on the same line, so that adding -h to a failing line explains it.
            if values.help {
                return Invocation(
                    path: path + [values.parsed], commands: commands,
                    help: HelpText.help(for: command, path: names))
            }
            firstError = firstError ?? values.error
            path.append(values.parsed)
            guard !command.subcommands.isEmpty, let word = rest.popFirst() else { break }
            guard let next = command.subcommands.first(where: { $0.name == word }) else {
                throw firstError ?? unknownCommand(word, of: command)
            }
            command = next
            names.append(word)
            commands.append(next)
        }
        if let firstError { throw firstError }
        return Invocation(path: path, commands: commands, help: nil)
    }

    static func unknownCommand(_ word: String, of command: any ParsableCommand.Type) -> UsageError {
        let names = command.subcommands.map { $0.name }
        let guess = Suggestion.nearest(to: word, in: names).map { "did you mean \"\($0)\"? " } ?? ""
        return UsageError("unknown command \"\(word)\"; \(guess)the commands are \(names.joined(separator: ", "))")
    }
}

/// What one line asked for: the values of each command on the path, or the help of the last one.
package struct Invocation {
    /// The values of the program and each subcommand, in order.
    package var path: [ParsedValues]
    /// The program and each subcommand, in order.
    package var commands: [any ParsableCommand.Type]
    /// The help text, when `-h` or `--help` asked for it.
    package var help: String?
}

/// One command's share of the line.
struct Level {
    let command: any ParsableCommand.Type
    let names: [String]

    struct Result {
        var parsed: ParsedValues
        var error: UsageError?
        var help = false
    }

    /// The command as it is named in messages: `read` for `chest read`, nothing for the program itself.
    var label: String { names.dropFirst().joined(separator: " ") }
    var seeHelp: String { "see `\(names.joined(separator: " ")) --help`" }

    /// Takes this command's words from `rest`; stops at a subcommand's name when the command has some.
    func scan(_ rest: inout ArraySlice<String>) -> Result {
        let table = command.parameters + [helpParameter]
        let stopsAtCommand = !command.subcommands.isEmpty
        var occurrences: [ParsedValues.Occurrence] = []
        var positionals: [String] = []
        var error: UsageError?
        var help = false
        var optionsEnded = false
        func fail(_ text: String) { if error == nil { error = UsageError(label.isEmpty ? text : label + ": " + text) } }
        while let word = rest.first {
            if optionsEnded || !Self.looksLikeOption(word) {
                if stopsAtCommand { break }
                positionals.append(word)
                rest.removeFirst()
                continue
            }
            rest.removeFirst()
            if word == "--" {
                optionsEnded = true
                continue
            }
            var name = word
            var inline: String?
            if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                inline = String(word[word.index(after: equals)...])
            }
            guard let parameter = table.first(where: { $0.isOption && $0.names.contains(name) }) else {
                let guess = Suggestion.nearest(
                    to: name, in: table.filter { $0.isOption && !$0.isHidden }.flatMap(\.names))
                fail("unknown option \(name); \(guess.map { "did you mean \($0)? " } ?? "")\(seeHelp)")
                continue
            }
            if parameter == helpParameter {
                help = true
                continue
            }
            var value: String?
            if parameter.takesValue {
                // `--title -h` asks for help rather than a title named -h; `--title=-h` is a title.
                if inline == nil, let next = rest.first, Self.isHelp(next) { continue }
                value = inline ?? rest.popFirst()
                if value == nil { fail("\(name) needs a value") }
            } else if inline != nil {
                fail("\(name) takes no value")
            }
            if !parameter.isRepeatable, occurrences.contains(where: { $0.name == parameter.name }) {
                fail("\(name) is given twice")
            }
            occurrences.append(.init(name: parameter.name, value: value))
        }
        let positional = table.filter { !$0.isOption }
        if error == nil { error = arityError(positionals, positional) }
        return Result(
            parsed: ParsedValues(
                commandPath: names.joined(separator: " "), occurrences: occurrences,
                positionals: positionals, positionalParameters: positional),
            error: error, help: help)
    }

    private func arityError(_ words: [String], _ parameters: [Parameter]) -> UsageError? {
        let arities = parameters.compactMap(\.arity)
        if arities.isEmpty, let extra = words.first {
            return UsageError("\(label.isEmpty ? "" : label + ": ")unexpected \"\(extra)\"; \(seeHelp)")
        }
        let minimum = arities.reduce(0) { $0 + $1.minimum }
        let maximum = arities.reduce(0) { $0 > Int.max - $1.maximum ? Int.max : $0 + $1.maximum }
        guard words.count < minimum || words.count > maximum else { return nil }
        let lines = HelpText.usageLines(of: command, path: names)
        return UsageError("usage: " + lines.joined(separator: " | "), isUsage: true)
    }

    static func looksLikeOption(_ word: String) -> Bool {
        guard word.hasPrefix("-"), word.count > 1 else { return false }
        return !word.dropFirst().first!.isNumber
    }

    static func isHelp(_ word: String) -> Bool { word == "-h" || word == "--help" }
}
