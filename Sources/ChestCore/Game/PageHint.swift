import FoundationEssentials

/// A hint on a page (docs/FORMAT.md "Hints"): its text sealed under a key of its own, and the policy that gives the key.
/// Outside a hunt the key is in the file, and the hint opens on asking or after its delay; a hunt's hint has its key
/// only in the organiser's hunt file, and its board gives it, on asking or free once its delay has run (docs/HUNTS.md
/// "Hints"). Files composed before that keep a hunt's delayed hint's key in the file, and still open by themselves.
package struct PageHint: Hashable, Sendable {
    /// nonce (24 bytes) ‖ XChaCha20-Poly1305 ciphertext and tag of the `HintContent`'s JSON.
    package var ciphertext: [UInt8]
    /// The hint's key (32 bytes) when the file holds it.
    package var key: [UInt8]?
    /// Seconds after the page became the reader's next goal at which the hint opens by itself (its key in the file),
    /// or the hunt's board gives it free (its key only the board's).
    package var after: Int?
    /// A hunt's hint: the points the board charges for giving it. Nil outside a hunt.
    package var cost: Int?

    package init(ciphertext: [UInt8], key: [UInt8]?, after: Int? = nil, cost: Int? = nil) {
        self.ciphertext = ciphertext
        self.key = key
        self.after = after
        self.cost = cost
    }

    /// A hint composed for a hunt (it carries its cost, 0 when free): before its delay, or when its key is not in the
    /// file, `chest hint` asks the organiser's board for it.
    package var isHunts: Bool { cost != nil }
}

/// What a hint's ciphertext holds.
package struct HintContent: Hashable, Sendable, Codable {
    package var text: String

    package init(text: String) { self.text = text }

    /// The JSON that is encrypted: compact, keys sorted, padded with spaces to a multiple of 256 bytes.
    package func plaintext() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var bytes = [UInt8](try! encoder.encode(self))
        let block = SealedPage.paddingBlock
        bytes += [UInt8](repeating: 0x20, count: (block - bytes.count % block) % block)
        return bytes
    }

    /// Reads decrypted bytes back; nil when they are not a hint.
    package static func decode(_ bytes: [UInt8]) -> HintContent? {
        guard let content = try? JSONDecoder().decode(HintContent.self, from: Data(bytes)),
            Page.hintProblem(content.text) == nil
        else { return nil }
        return content
    }
}

extension Page {
    /// At most this many hints a page.
    package static let maximumHints = 5
    /// A hint's text, in Unicode scalars.
    package static let maximumHintLength = 2_000
    /// The longest delay, in seconds: 30 days.
    package static let maximumHintDelay = 30 * 86_400
    /// The most points a hint may cost.
    package static let maximumHintCost = 1_000_000

    /// Why a hint's text cannot be kept, or nil.
    package static func hintProblem(_ text: String) -> String? {
        if text.trimmed().isEmpty { return "the hint is empty" }
        let length = text.unicodeScalars.count
        guard length <= maximumHintLength else {
            return "the hint has \(length) characters, over the \(maximumHintLength)-character limit of a hint"
        }
        return nil
    }
}

extension SealSecret {
    /// The associated data of a page's hint: "chest-vN|hint|ID|PAGE|HINT", HINT from 1.
    package static func hintData(_ id: MessageID, page: Int, hint: Int, version: Int = 3) -> String {
        "\(prefix(version))|hint|\(id.rawValue)|\(page)|\(hint)"
    }
}
