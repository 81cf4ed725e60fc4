/// A value kept out of line, immutable: a field that most values of a type leave at its default costs that type one
/// pointer instead of the field's whole size. The engine holds 10,000 messages side by side, and a message's PIN
/// attempts, seal state or page extras are nearly always empty (docs/BENCHMARKS.md "Memory").
final class Boxed<Value: Hashable & Sendable>: Hashable, Sendable {
    let value: Value

    init(_ value: Value) { self.value = value }

    /// The box for `value`, or nil for the default, so that equal values compare and hash alike either way.
    static func unlessDefault(_ value: Value, _ empty: Value) -> Boxed? { value == empty ? nil : Boxed(value) }

    static func == (a: Boxed, b: Boxed) -> Bool { a === b || a.value == b.value }

    func hash(into hasher: inout Hasher) { hasher.combine(value) }
}
