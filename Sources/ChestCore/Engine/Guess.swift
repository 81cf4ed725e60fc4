/// What a reader tries on a message's secret locks: a PIN or an answer. Both are counted, slowed and recorded alike,
/// in one count per message (docs/DESIGN.md "Sealed pages").
package enum Guess: Hashable, Sendable {
    case pin(String)
    /// An answer, normalised (`AnswerText.normalised`).
    case answer(String)

    /// The lock it latches when right.
    package var lockKind: LockKind {
        switch self {
        case .pin: .pin
        case .answer: .answer
        }
    }

    /// How the attempts' `tried` and `pending` keep it: a PIN as its digits, an answer as "answer=TEXT", so the two
    /// never meet.
    package var recorded: String {
        switch self {
        case let .pin(digits): digits
        case let .answer(text): "answer=" + text
        }
    }

    package var pin: String? { if case let .pin(digits) = self { digits } else { nil } }
    package var answer: String? { if case let .answer(text) = self { text } else { nil } }

    /// The reply that carries an outcome to its command.
    func reply(_ outcome: PINOutcome) -> Reply {
        switch self {
        case .pin: .pin(outcome)
        case .answer: .answer(outcome)
        }
    }
}
