/// What the chest remembers of a message's sealed locks between runs: the cells that failed, and the PIN kept
/// for a set that holds a PIN and a location together (docs/DESIGN.md "Sealed pages"). Never a key, a point or
/// a text: those stay in memory until the page opens.
public struct SealState: Hashable, Sendable, Codable {
    /// Cells whose key did not open the page, by sealed location lock ("1A:location"); never tried again.
    public var tried: [String: [Cell]] = [:]
    /// The last PIN entered for a page whose set needs a PIN and a place together, by page number.
    public var keptPINs: [String: String] = [:]
    /// The last answer given (normalised) for a page whose set needs an answer and a place together, by page number;
    /// absent from state files older than answer locks.
    public var keptAnswers: [String: String]?

    public init() {}

    public var isEmpty: Bool { tried.isEmpty && keptPINs.isEmpty && (keptAnswers ?? [:]).isEmpty }

    public func hasTried(_ cell: Cell, for key: LockKey) -> Bool { tried[key.description]?.contains(cell) ?? false }

    public var cellsTried: Int { tried.values.reduce(0) { $0 + $1.count } }

    public func keptPIN(page: Int) -> String? { keptPINs[String(page)] }

    public func keptAnswer(page: Int) -> String? { keptAnswers?[String(page)] }
}
