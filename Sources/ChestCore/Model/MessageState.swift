import struct FoundationEssentials.Date

/// One lock of a message: page (1-based), set and type. A set holds at most one lock of each type.
package struct LockKey: Hashable, Sendable, Comparable, TextCodable {
    // A byte is plenty for 1 to 5 pages, and keys are filed by the thousand.
    private var pageNumber: UInt8
    package var set: LockSetName
    package var kind: LockKind

    package var page: Int {
        get { Int(pageNumber) }
        set { pageNumber = UInt8(clamping: newValue) }
    }

    package init(page: Int, set: LockSetName, kind: LockKind) {
        pageNumber = UInt8(clamping: page)
        self.set = set
        self.kind = kind
    }

    /// "2A:location"
    package var description: String { "\(page)\(set.rawValue):\(kind.rawValue)" }

    package init?(_ text: String) {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let kind = LockKind(rawValue: String(parts[1])),
            let setChar = parts[0].last, let set = LockSetName(rawValue: String(setChar)),
            let page = Int(parts[0].dropLast())
        else { return nil }
        self.init(page: page, set: set, kind: kind)
    }

    package static func < (a: LockKey, b: LockKey) -> Bool { a.description < b.description }
}

/// A page that has opened, and whether its unlock has been delivered to anyone.
package struct OpenPage: Hashable, Sendable, Codable {
    package var page: Int
    /// The set that opened it; `nil` for a page that had no locks.
    package var set: LockSetName?
    package var at: Date
    /// When the place of the set that opened it was reached (its third confirming fix): earlier than `at` when the
    /// place's key came late; nil when no location lock took part.
    package var reachedAt: Date?
    /// Whether a watcher or notifier received the `unlocked` event.
    package var delivered: Bool
    /// What chestd saw as it opened (docs/FORMAT.md "Unlock receipts"); absent for pages opened before
    /// receipts existed.
    package var evidence: UnlockEvidence?
    /// A format 2 page's text and hidden points, kept here once it opened (the file has them only encrypted).
    package var content: SealedContent?
    /// A format 2 page's proof key (base64), derived from its page key as it opened: it makes the proof of opening
    /// in the page's receipt (docs/HUNTS.md "Proof of opening"); it opens nothing.
    package var proofKey: String?

    package init(page: Int, set: LockSetName?, at: Date, delivered: Bool, content: SealedContent? = nil) {
        self.page = page
        self.set = set
        self.at = at
        self.delivered = delivered
        self.content = content
    }
}

/// Wrong PIN attempts on one message, persisted before each comparison.
package struct PINAttempts: Hashable, Sendable, Codable {
    /// Wrong attempts since the last right one.
    package var wrong: Int = 0
    /// The distinct wrong PINs tried: repeating one costs nothing.
    package var tried: [String] = []
    /// Further attempts are refused until then.
    package var refusedUntil: Date?
    /// An attempt that was counted but whose outcome was not yet recorded (a crash mid-attempt keeps it).
    package var pending: String?

    package init() {}

    /// After this many wrong attempts, each further wrong one waits longer.
    package static let freeAttempts = 5
    /// 30 s, 1 min, 5 min, 15 min, then 1 h (docs/DESIGN.md "Lock rules").
    package static let delays: [Double] = [30, 60, 300, 900, 3600]

    /// Exactly four ASCII digits (not merely four characters that look like digits); up to `maximumDigits` when
    /// the PIN is part of a format 2 key.
    package static func isWellFormed(_ pin: String, maximumDigits: Int = 4) -> Bool {
        (4...maximumDigits).contains(pin.utf8.count) && pin.utf8.allSatisfy { (0x30...0x39).contains($0) }
    }

    /// The longest PIN format 2 takes.
    package static let maximumSealedDigits = 12

    /// The two records of the same message's attempts (its state and the chest's ledger) as one: the stricter.
    package func merged(with other: PINAttempts) -> PINAttempts {
        var merged = wrong >= other.wrong ? self : other
        merged.tried = tried + other.tried.filter { !tried.contains($0) }
        merged.refusedUntil = [refusedUntil, other.refusedUntil].compactMap { $0 }.max()
        merged.pending = nil
        return merged
    }

    /// The wait imposed after the `wrong`-th wrong attempt, if any.
    package static func delay(afterWrong wrong: Int) -> Double? {
        guard wrong >= freeAttempts else { return nil }
        return delays[min(wrong - freeAttempts, delays.count - 1)]
    }
}

/// What the chest remembers about a message beyond its file: latched locks, open pages, PIN attempts.
package struct MessageState: Hashable, Sendable, Codable {
    package var latched: [LockKey: Date] = [:]
    package var openPages: [OpenPage] = []
    package var pin: PINAttempts {
        get { pinBox?.value ?? PINAttempts() }
        set { pinBox = .unlessDefault(newValue, PINAttempts()) }
    }
    package var ingestedAt: Date
    /// Format 2: cells tried and PINs kept.
    package var seal: SealState {
        get { sealBox?.value ?? SealState() }
        set { sealBox = .unlessDefault(newValue, SealState()) }
    }
    /// The page hints opened, in the order they opened (docs/FORMAT.md "Hints").
    package var hints: [OpenHint] = []
    // Out of line: nearly every message has neither, and 56 bytes of 10,000 messages' state is half a megabyte.
    private var pinBox: Boxed<PINAttempts>?
    private var sealBox: Boxed<SealState>?

    package init(ingestedAt: Date) { self.ingestedAt = ingestedAt }

    /// The opened hint of this page and number, if it opened.
    package func openHint(page: Int, hint: Int) -> OpenHint? { hints.first { $0.page == page && $0.hint == hint } }

    package func isOpen(page: Int) -> Bool { openPages.contains { $0.page == page } }

    package var openPageNumbers: [Int] { openPages.map(\.page).sorted() }

    enum CodingKeys: String, CodingKey { case latched, openPages, pin, ingestedAt, seal, hints }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let latchedList = try container.decodeIfPresent([String: Date].self, forKey: .latched) ?? [:]
        latched = Dictionary(
            uniqueKeysWithValues: latchedList.compactMap { key, date in
                LockKey(key).map { ($0, date) }
            })
        openPages = try container.decodeIfPresent([OpenPage].self, forKey: .openPages) ?? []
        ingestedAt = try container.decode(Date.self, forKey: .ingestedAt)
        pin = try container.decodeIfPresent(PINAttempts.self, forKey: .pin) ?? PINAttempts()
        seal = try container.decodeIfPresent(SealState.self, forKey: .seal) ?? SealState()
        hints = try container.decodeIfPresent([OpenHint].self, forKey: .hints) ?? []
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(
            Dictionary(uniqueKeysWithValues: latched.map { ($0.key.description, $0.value) }),
            forKey: .latched)
        try container.encode(openPages, forKey: .openPages)
        try container.encode(pin, forKey: .pin)
        try container.encode(ingestedAt, forKey: .ingestedAt)
        if !seal.isEmpty { try container.encode(seal, forKey: .seal) }
        if !hints.isEmpty { try container.encode(hints, forKey: .hints) }
    }
}

/// The regular chest or the saved chest (at most 50 messages).
package enum ChestKind: String, Hashable, Sendable, Codable {
    case regular, saved

    package static let savedLimit = 50
}
