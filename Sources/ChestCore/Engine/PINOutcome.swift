import struct FoundationEssentials.Date

/// How a PIN attempt ended.
package enum PINOutcome: Hashable, Sendable, Codable {
    /// The PIN was right: these PIN locks latched, and these pages are open now (maybe none, if other locks wait).
    case accepted(latched: [LockKey], opened: [Int])
    /// Wrong; `wrong` attempts so far, and further attempts are refused until `refusedUntil` if set.
    case wrong(wrong: Int, refusedUntil: Date?)
    /// This wrong PIN was tried before: it costs nothing and opens nothing.
    case alreadyTried
    /// Too many wrong attempts: try again at this time.
    case refused(until: Date)
    /// The PIN belongs with a place: kept, and tried with each new cell (no count, no verdict).
    case kept
    case failed(String)

    /// What `chest pin` or `chest answer` prints (or its error), the guess named by `noun` ("PIN", "answer"), with
    /// times in `timeZone`.
    package func text(for noun: String = "PIN", timeZone: Zone) -> String {
        switch self {
        case let .accepted(latched, opened):
            opened.isEmpty
                ? "\(noun) accepted (\(latched.count) lock\(latched.count == 1 ? "" : "s")); the page still waits for its other locks"
                : "\(noun) accepted: page\(opened.count == 1 ? "" : "s") \(opened.map(String.init).joined(separator: ", ")) open"
        case let .wrong(wrong, until):
            if let until {
                "wrong \(noun) (\(wrong) wrong attempts); the next attempt is allowed at \(LockReason.format(until, timeZone, seconds: true))"
            } else {
                "wrong \(noun) (\(wrong) of \(PINAttempts.freeAttempts) attempts before a wait)"
            }
        case .alreadyTried: "wrong \(noun) (already tried; it did not count again)"
        case let .refused(until):
            "too many wrong \(noun)s: the next attempt is allowed at \(LockReason.format(until, timeZone, seconds: true))"
        case let .failed(why): why
        case .kept: "\(noun) kept: it will be tried at each new place"
        }
    }
}
