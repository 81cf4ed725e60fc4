import struct FoundationEssentials.Date

/// A page's hint that opened, kept in the message's state with its text (the file has it only encrypted).
public struct OpenHint: Hashable, Sendable, Codable {
    public var page: Int
    /// From 1, in the page's order.
    public var hint: Int
    public var at: Date
    public var text: String
    /// What the hunt's board charged for it, when its answer opened it (0 for a delayed hint it gave free); nil
    /// otherwise, and in states saved before it was kept.
    public var cost: Int?

    public init(page: Int, hint: Int, at: Date, text: String, cost: Int? = nil) {
        self.page = page
        self.hint = hint
        self.at = at
        self.text = text
        self.cost = cost
    }
}

/// One hint's key to try, asked by the engine (`.openHint`) and answered by the daemon (`.hintOpened`) with the
/// text it opened, ChestSeal's `HintSealer.open`.
public struct HintOpening: Hashable, Sendable {
    public var id: MessageID
    public var page: Int
    public var hint: Int
    public var key: [UInt8]
    public var ciphertext: [UInt8]
    /// The file's format: it names the associated data.
    public var version: Int
    /// The key came from the hunt's board, not from the file: one that opens nothing is counted.
    public var fromOrganiser: Bool
    /// What the board's answer says it charged (0 for a delayed hint given free), when the key came with one.
    public var charged: Int?

    public init(id: MessageID, page: Int, hint: Int, key: [UInt8], ciphertext: [UInt8], version: Int, fromOrganiser: Bool,
                charged: Int? = nil) {
        self.id = id
        self.page = page
        self.hint = hint
        self.key = key
        self.ciphertext = ciphertext
        self.version = version
        self.fromOrganiser = fromOrganiser
        self.charged = charged
    }

    var ref: HintRef { HintRef(id: id, page: page, hint: hint) }
}

/// One hint of one page of one message.
public struct HintRef: Hashable, Sendable, Comparable {
    public var id: MessageID
    public var page: Int
    public var hint: Int

    public init(id: MessageID, page: Int, hint: Int) {
        self.id = id
        self.page = page
        self.hint = hint
    }

    /// "ID#PAGE#HINT": how the hint keys heard are kept (`<chest>/hint-keys.json`).
    public var key: String { "\(id.rawValue)#\(page)#\(hint)" }

    public init?(key: String) {
        let parts = key.split(separator: "#")
        guard parts.count == 3, let id = MessageID(String(parts[0])), let page = Int(parts[1]), let hint = Int(parts[2]) else { return nil }
        self.init(id: id, page: page, hint: hint)
    }

    public static func < (a: HintRef, b: HintRef) -> Bool { (a.id.rawValue, a.page, a.hint) < (b.id.rawValue, b.page, b.hint) }
}

/// What `watch` (event `hint`) and the desktop hear of a hint that opened.
public struct HintNote: Hashable, Sendable {
    public var id: MessageID
    public var title: String
    public var page: Int
    public var hint: Int
    public var text: String
    /// A hunt's hint: what the board charges for it.
    public var cost: Int?
    public var at: Date

    public init(id: MessageID, title: String, page: Int, hint: Int, text: String, cost: Int?, at: Date) {
        self.id = id
        self.title = title
        self.page = page
        self.hint = hint
        self.text = text
        self.cost = cost
        self.at = at
    }
}

/// The reply to `chest hint`: the hint opened (`opened`, with its text), or asked of the hunt's organiser (`asked`).
public struct HintAnswer: Hashable, Sendable, Codable {
    public enum Outcome: String, Hashable, Sendable, Codable { case opened, asked }

    public var id: MessageID
    public var title: String
    public var page: Int
    public var hint: Int
    public var outcome: Outcome
    public var text: String?
    public var cost: Int?
    /// `asked`: whether the hunt's broker is connected now; when not, the request waits in the outbox.
    public var connected: Bool?

    public init(id: MessageID, title: String, page: Int, hint: Int, outcome: Outcome, text: String? = nil, cost: Int? = nil,
                connected: Bool? = nil) {
        self.id = id
        self.title = title
        self.page = page
        self.hint = hint
        self.outcome = outcome
        self.text = text
        self.cost = cost
        self.connected = connected
    }
}

/// A hint of a page as `chest read` shows it.
public struct HintReport: Hashable, Sendable, Codable {
    /// From 1.
    public var number: Int
    public var open: Bool
    /// Once open.
    public var text: String?
    public var openedAt: Date?
    /// A hunt's hint: what the board charges for it.
    public var cost: Int?
    /// A hint with a delay whose page is the reader's next goal: when it opens by itself.
    public var opensAt: Date?
    /// Its delay in seconds, from the moment its page becomes the reader's next goal.
    public var after: Int?
    /// Whether only the hunt's organiser can give it (its key is not in the file).
    public var byOrganiser: Bool
}
