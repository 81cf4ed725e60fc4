/// What the chest remembers of a message's sealed locks between runs: the cells that failed, and the PIN kept
/// for a set that holds a PIN and a location together (docs/DESIGN.md "Sealed pages"). Never a key, a point or
/// a text: those stay in memory until the page opens.
package struct SealState: Hashable, Sendable, Codable {
    /// Cells whose key did not open the page, by sealed location lock; never tried again. On disk the lock is
    /// written as its text ("1A:location").
    package var tried: [LockKey: [Cell]] = [:]
    /// The last PIN entered for a page whose set needs a PIN and a place together, by page number.
    package var keptPINs: [String: String] = [:]
    /// The last answer given (normalised) for a page whose set needs an answer and a place together, by page number;
    /// absent from state files older than answer locks.
    package var keptAnswers: [String: String]?

    package init() {}

    package var isEmpty: Bool { tried.isEmpty && keptPINs.isEmpty && (keptAnswers ?? [:]).isEmpty }

    package func hasTried(_ cell: Cell, for key: LockKey) -> Bool { tried[key]?.contains(cell) ?? false }

    package var cellsTried: Int { tried.values.reduce(0) { $0 + $1.count } }

    package func keptPIN(page: Int) -> String? { keptPINs[String(page)] }

    package func keptAnswer(page: Int) -> String? { keptAnswers?[String(page)] }

    private enum CodingKeys: String, CodingKey { case tried, keptPINs, keptAnswers }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let tried = try container.decodeIfPresent([String: [Cell]].self, forKey: .tried) ?? [:]
        // A lock this chest cannot name is one its files no longer have: its cells are dropped, not refused.
        self.tried = Dictionary(
            uniqueKeysWithValues: tried.compactMap { key, cells in LockKey(key).map { ($0, cells) } })
        keptPINs = try container.decodeIfPresent([String: String].self, forKey: .keptPINs) ?? [:]
        keptAnswers = try container.decodeIfPresent([String: String].self, forKey: .keptAnswers)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(
            Dictionary(uniqueKeysWithValues: tried.map { ($0.key.description, $0.value) }), forKey: .tried)
        try container.encode(keptPINs, forKey: .keptPINs)
        try container.encodeIfPresent(keptAnswers, forKey: .keptAnswers)
    }
}
