/// Help and usage lines, rendered from a command's declaration.
public enum HelpText {
    /// The usage line after the command's name, made from its parameters: positionals then options for a
    /// command, options then `COMMAND [ARGS]` for a program with subcommands.
    public static func synopsis(of command: any ParsableCommand.Type) -> String {
        let visible = command.parameters.filter { !$0.isHidden }
        let options = visible.filter { $0.isOption && $0.isInUsage }.map(optionUsage)
        let positionals = positionalUsage(visible.filter { !$0.isOption })
        let words = command.subcommands.isEmpty ? positionals + options : options + ["COMMAND [ARGS]"]
        return words.joined(separator: " ")
    }

    /// The full usage lines, such as `chest read ID [--json]`.
    public static func usageLines(of command: any ParsableCommand.Type, path: [String]) -> [String] {
        command.synopses.map { ([path.joined(separator: " ")] + ($0.isEmpty ? [] : [$0])).joined(separator: " ") }
    }

    /// `chest help read` and `chest read --help`.
    public static func help(for command: any ParsableCommand.Type, path: [String]) -> String {
        var sections = [usageLines(of: command, path: path).enumerated()
            .map { ($0.offset == 0 ? "usage: " : "       ") + $0.element }.joined(separator: "\n")]
        sections.append(command.abstract)
        let parameters = command.parameters.filter { !$0.isHidden }
        let positionals = parameters.filter { !$0.isOption }.map { ($0.name, $0.help) }
        let options = (parameters.filter(\.isOption) + [helpParameter]).map { (optionLabel($0), $0.help) }
        let commands = command.subcommands.map { ($0.name, $0.abstract) }
        let width = (positionals + options + commands).map(\.0.count).max() ?? 0
        for (title, rows) in [("arguments", positionals), ("options", options), ("commands", commands)] where !rows.isEmpty {
            sections.append(title + ":\n" + rows.map { table(row: $0, width: width) }.joined(separator: "\n"))
        }
        if !command.discussion.isEmpty { sections.append(command.discussion) }
        return sections.joined(separator: "\n\n")
    }

    /// `  -o, --output FILE   the message file to write`.
    static func table(row: (String, String), width: Int) -> String {
        "  " + row.0 + String(repeating: " ", count: width - row.0.count + 3) + row.1
    }

    /// `-o, --output FILE`: short aliases first.
    static func optionLabel(_ parameter: Parameter) -> String {
        let names = parameter.names.filter { !$0.hasPrefix("--") } + parameter.names.filter { $0.hasPrefix("--") }
        return names.joined(separator: ", ") + (parameter.valueName.map { " " + $0 } ?? "")
    }

    /// `[--count N]`, `[--lock SPEC]...`, `[-v]`: the short alias where there is one.
    static func optionUsage(_ parameter: Parameter) -> String {
        let name = parameter.names.first { !$0.hasPrefix("--") } ?? parameter.name
        let word = "[" + name + (parameter.valueName.map { " " + $0 } ?? "") + "]"
        return parameter.isRepeatable ? word + "..." : word
    }

    /// `ID PIN`, `FILE...`, `[KEY [VALUE]]`: optional positionals nest.
    static func positionalUsage(_ parameters: [Parameter]) -> [String] {
        var words: [String] = [], optionalTail = ""
        for parameter in parameters.reversed() {
            guard let arity = parameter.arity else { continue }
            let word = parameter.name + (arity.maximum > 1 ? "..." : "")
            if arity.minimum == 0 {
                optionalTail = "[" + word + (optionalTail.isEmpty ? "" : " " + optionalTail) + "]"
            } else {
                if !optionalTail.isEmpty { words.insert(optionalTail, at: 0) }
                optionalTail = ""
                words.insert(word, at: 0)
            }
        }
        return optionalTail.isEmpty ? words : [optionalTail] + words
    }
}
