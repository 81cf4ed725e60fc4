/// What the parser found for one command: each option in the order given, and the positionals.
package struct ParsedValues: Sendable {
    /// One option as given: its long name and, for an option with a value, the value.
    package struct Occurrence: Sendable, Hashable {
        package var name: String
        package var value: String?
    }

    /// The command path for messages, such as `chest read`.
    package let commandPath: String
    /// Options in the order given, for a grammar where order matters.
    package let occurrences: [Occurrence]
    /// The positional words, in order.
    package let positionals: [String]
    let positionalParameters: [Parameter]

    /// True when the flag was given.
    package func flag(_ name: String) -> Bool {
        occurrences.contains { $0.name == name }
    }

    /// The option's value, or nil when it was not given.
    package func value(_ name: String) -> String? {
        occurrences.last { $0.name == name }?.value
    }

    /// Every value of a repeatable option, in order.
    package func values(_ name: String) -> [String] {
        occurrences.compactMap { $0.name == name ? $0.value : nil }
    }

    /// The option's value read by `transform`; `message` is the usage error when it returns nil.
    package func value<T>(_ name: String, _ message: String, _ transform: (String) -> T?) throws(UsageError) -> T? {
        guard let text = value(name) else { return nil }
        guard let value = transform(text) else { throw UsageError(message) }
        return value
    }

    /// The words given to the positional parameter named `name`: each takes its minimum, then the earlier ones
    /// take what is left up to their maximum.
    package func positional(_ name: String) -> [String] {
        var extra = positionals.count - positionalParameters.reduce(0) { $0 + ($1.arity?.minimum ?? 0) }
        var start = 0
        for parameter in positionalParameters {
            guard let arity = parameter.arity else { continue }
            let count = arity.minimum + min(max(extra, 0), arity.maximum - arity.minimum)
            extra -= count - arity.minimum
            let end = min(start + count, positionals.count)
            if parameter.name == name { return Array(positionals[start..<end]) }
            start = end
        }
        return []
    }
}
