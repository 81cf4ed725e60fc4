/// One entry of a command's table: a flag, an option that takes a value, or a positional argument.
package struct Parameter: Sendable, Hashable {
    package enum Kind: Sendable, Hashable {
        /// `--json`: present or not.
        case flag
        /// `--page TEXT`, `--page=TEXT` or, with a short alias, `-o FILE`.
        case option(valueName: String)
        /// A word that is not an option, such as `ID`.
        case positional(Arity)
    }

    /// The long name first (`--output`), then any short alias (`-o`); a positional's only name is its value name.
    package var names: [String]
    package var kind: Kind
    package var help: String
    /// May be given more than once; the command reads every occurrence, in order.
    package var isRepeatable: Bool
    /// Left out of help and usage lines, still parsed and completed.
    package var isHidden: Bool
    /// Shown in the usage line; false for a flag that only reports, such as `--version`.
    package var isInUsage = true
    package var completion: Completion

    /// The long name, or a positional's value name: how the command asks for its value.
    package var name: String { names[0] }

    /// A flag, such as `.flag("--json", help: "print JSON")`.
    package static func flag(
        _ names: String..., help: String, repeatable: Bool = false, hidden: Bool = false,
        inUsage: Bool = true
    ) -> Parameter {
        Parameter(
            names: names, kind: .flag, help: help, isRepeatable: repeatable, isHidden: hidden, isInUsage: inUsage,
            completion: .none)
    }

    /// An option with a value, such as `.option("--count", value: "N", help: "stop after N events")`.
    package static func option(
        _ names: String..., value: String, help: String, repeatable: Bool = false,
        hidden: Bool = false, completion: Completion = .none
    ) -> Parameter {
        Parameter(
            names: names, kind: .option(valueName: value), help: help, isRepeatable: repeatable,
            isHidden: hidden, completion: completion)
    }

    /// A positional argument, such as `.positional("FILE", arity: .oneOrMore, help: "a message file")`.
    package static func positional(
        _ valueName: String, arity: Arity = .one, help: String,
        completion: Completion = .none
    ) -> Parameter {
        Parameter(
            names: [valueName], kind: .positional(arity), help: help, isRepeatable: false, isHidden: false,
            completion: completion)
    }

    var isOption: Bool { if case .positional = kind { false } else { true } }
    var takesValue: Bool { if case .option = kind { true } else { false } }
    var valueName: String? {
        switch kind {
        case .flag: nil
        case let .option(valueName): valueName
        case .positional: name
        }
    }
    var arity: Arity? { if case let .positional(arity) = kind { arity } else { nil } }
}

/// How many words a positional argument takes.
package struct Arity: Sendable, Hashable {
    package var minimum: Int
    package var maximum: Int

    package init(_ minimum: Int, _ maximum: Int) {
        self.minimum = minimum
        self.maximum = maximum
    }

    package static let one = Arity(1, 1)
    package static let optional = Arity(0, 1)
    package static let oneOrMore = Arity(1, .max)
}
