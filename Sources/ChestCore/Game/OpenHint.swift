import struct FoundationEssentials.Date

/// A page's hint that opened, kept in the message's state with its text (the file has it only encrypted).
package struct OpenHint: Hashable, Sendable, Codable {
    package var page: Int
    /// From 1, in the page's order.
    package var hint: Int
    package var at: Date
    package var text: String
    /// What the hunt's board charged for it, when its answer opened it (0 for a delayed hint it gave free); nil
    /// otherwise, and in states saved before it was kept.
    package var cost: Int?

    package init(page: Int, hint: Int, at: Date, text: String, cost: Int? = nil) {
        self.page = page
        self.hint = hint
        self.at = at
        self.text = text
        self.cost = cost
    }
}

/// One hint's key to try, asked by the engine (`.openHint`) and answered by the daemon (`.hintOpened`) with the
/// text it opened, ChestSeal's `HintSealer.open`.
package struct HintOpening: Hashable, Sendable {
    /// The message's chest ID (`StoredMessage.id`).
    package var id: MessageID
    /// The ID sealed in its file, which the hint's associated data is made of.
    package var sealedID: MessageID
    package var page: Int
    package var hint: Int
    package var key: [UInt8]
    package var ciphertext: [UInt8]
    /// The file's format: it names the associated data.
    package var version: Int
    /// The key came from the hunt's board, not from the file: one that opens nothing is counted.
    package var fromOrganiser: Bool
    /// What the board's answer says it charged (0 for a delayed hint given free), when the key came with one.
    package var charged: Int?

    package init(
        id: MessageID, page: Int, hint: Int, key: [UInt8], ciphertext: [UInt8], version: Int, fromOrganiser: Bool,
        charged: Int? = nil, sealedID: MessageID? = nil
    ) {
        self.id = id
        self.sealedID = sealedID ?? id
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
package struct HintRef: Hashable, Sendable, Comparable {
    package var id: MessageID
    package var page: Int
    package var hint: Int

    package init(id: MessageID, page: Int, hint: Int) {
        self.id = id
        self.page = page
        self.hint = hint
    }

    /// "ID#PAGE#HINT": how the hint keys heard are kept (`<chest>/hint-keys.json`).
    package var key: String { "\(id.rawValue)#\(page)#\(hint)" }

    package init?(key: String) {
        let parts = key.split(separator: "#")
        guard parts.count == 3, let id = MessageID(String(parts[0])), let page = Int(parts[1]), let hint = Int(parts[2])
        else { return nil }
        self.init(id: id, page: page, hint: hint)
    }

    package static func < (a: HintRef, b: HintRef) -> Bool {
        (a.id.rawValue, a.page, a.hint) < (b.id.rawValue, b.page, b.hint)
    }
}

/// What `watch` (event `hint`) and the desktop hear of a hint that opened.
package struct HintNote: Hashable, Sendable {
    package var id: MessageID
    package var title: String
    package var page: Int
    package var hint: Int
    package var text: String
    /// A hunt's hint: what the board charges for it.
    package var cost: Int?
    package var at: Date

    package init(id: MessageID, title: String, page: Int, hint: Int, text: String, cost: Int?, at: Date) {
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
package struct HintAnswer: Hashable, Sendable, Codable {
    package enum Outcome: String, Hashable, Sendable, Codable { case opened, asked }

    package var id: MessageID
    package var title: String
    package var page: Int
    package var hint: Int
    package var outcome: Outcome
    package var text: String?
    package var cost: Int?
    /// `asked`: whether the hunt's broker is connected now; when not, the request waits in the outbox.
    package var connected: Bool?

    package init(
        id: MessageID, title: String, page: Int, hint: Int, outcome: Outcome, text: String? = nil, cost: Int? = nil,
        connected: Bool? = nil
    ) {
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
package struct HintReport: Hashable, Sendable, Codable {
    /// From 1.
    package var number: Int
    package var open: Bool
    /// Once open.
    package var text: String?
    package var openedAt: Date?
    /// A hunt's hint: what the board charges for it.
    package var cost: Int?
    /// A hint with a delay whose page is the reader's next goal: when it opens by itself.
    package var opensAt: Date?
    /// Its delay in seconds, from the moment its page becomes the reader's next goal.
    package var after: Int?
    /// Whether only the hunt's organiser can give it (its key is not in the file).
    package var byOrganiser: Bool
}
