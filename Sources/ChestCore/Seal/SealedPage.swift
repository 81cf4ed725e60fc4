import FoundationEssentials

/// The encrypted part of a format 2 page: its content under a random page key, and that key once per lock set
/// (docs/FORMAT.md "Format 2").
package struct SealedPage: Hashable, Sendable {
    // Everything in one buffer (`SealedPageBytes`), read back when a key is tried or the file written: the
    // ciphertext's array, the slots' dictionary and each slot's arrays were four to six allocations a page, over
    // 200 bytes more than their contents in each of 10,000 messages. In chestd that buffer is parked in a file of
    // its own (`ParkedBytes`), and the page keeps where it is (docs/BENCHMARKS.md "Memory").
    private let storage: ParkedBytes

    /// nonce (24 bytes) ‖ XChaCha20-Poly1305 ciphertext and tag of the `SealedContent`'s JSON.
    package var ciphertext: [UInt8] { SealedPageBytes.ciphertext(bytes) }
    /// One slot per non-empty lock set.
    package var slots: [LockSetName: KeySlot] { SealedPageBytes.slots(bytes) }
    /// The file format the page was sealed in: 2 to 5 (docs/FORMAT.md "Format 3", "Format 4", "Format 5").
    package var version: Int { Int(storage.tag) }

    /// Whether this page's bytes are parked, not in memory.
    package var isParked: Bool { storage.isParked }

    package init(ciphertext: [UInt8], slots: [LockSetName: KeySlot], version: Int = 2) {
        storage = ParkedBytes(
            SealedPageBytes.encode(ciphertext: ciphertext, slots: slots, version: version),
            tag: UInt8(clamping: version))
    }

    /// The buffer, from the parking when it is there. Bytes that can no longer be read (the parking's file failed)
    /// read as a page with no ciphertext and no slot, which no key opens.
    private var bytes: [UInt8] {
        storage.bytes ?? SealedPageBytes.encode(ciphertext: [], slots: [:], version: version)
    }

    /// Format 6: every slot holds the page's inner key, and the page key needs the hunt's start key as well.
    package var needsStart: Bool { version >= MessageFile.startVersion }

    /// Format 3: a set with a sealed place holds exactly this many wrapped keys, the real ones (a cell each that the
    /// place's disk touches) and random filler, in random order.
    package static let cellSlots = 4
    /// How many wrapped keys a `cells` slot holds: one per cell of the key block (`CellGrid.keyBlock`: 2 × 2, or
    /// 3 × 3 in format 4 and 4 × 4 in format 5 for a place sealed with a PIN), times `answerSlots` with an answer lock.
    package static func cellSlots(version: Int, withPIN: Bool, withAnswer: Bool = false) -> Int {
        guard !withAnswer else { return cellSlots * answerSlots }
        let block = CellGrid.keyBlock(version: version, withPIN: withPIN)
        return block * block
    }

    /// A set with an answer lock holds exactly this many wrapped keys: one per accepted answer and random filler, so
    /// the count of answers does not show. Also the most answers a lock accepts.
    package static let answerSlots = 8

    package static let nonceBytes = 24
    package static let tagBytes = 16
    package static let keyBytes = 32
    package static let saltBytes = 16
    /// A wrapped page key: nonce, key, tag.
    package static let wrappedBytes = nonceBytes + keyBytes + tagBytes
    /// The content is padded to a multiple of this before encryption, so the ciphertext's length says little.
    package static let paddingBlock = 256
}

/// How one lock set holds the page key (docs/FORMAT.md "Key slots").
package enum KeySlot: Hashable, Sendable {
    /// Wrapped under an Argon2id key from the secrets of the set: its PIN, its location cell, or both.
    case sealed(salt: [UInt8], cost: SealCost, wrapped: [UInt8])
    /// Format 3, a set with a sealed place: the page key wrapped under the key of each cell the place's disk touches,
    /// padded with filler to `SealedPage.cellSlots`; one derivation for the reader's cell, then every entry is tried.
    case cells(salt: [UInt8], cost: SealCost, wrapped: [[UInt8]])
    /// Formats 2 and 3, a set with an answer lock: the page key wrapped under the key of each accepted answer's
    /// normalised text, padded with filler to `SealedPage.answerSlots` (docs/FORMAT.md "Answer locks").
    case answers(salt: [UInt8], cost: SealCost, wrapped: [[UInt8]])
    /// In the clear: a spoiler guard that chestd opens once the set's locks hold.
    case guarded(key: [UInt8])
}

/// What a page's ciphertext holds: its text, the exact point of each hidden location lock, by set, and what its
/// attachments are with the key that opens them.
package struct SealedContent: Hashable, Sendable, Codable {
    package var text: String
    package var a: SearchArea?
    package var b: SearchArea?
    /// The files the page carries, in the order of their bytes in the page's `attachments` (docs/FORMAT.md).
    package var attachments: [Attachment]?
    /// The key of the page's `attachments` ciphertext, base64 of 32 bytes.
    package var attachmentsKey: String?

    package init(
        text: String, a: SearchArea? = nil, b: SearchArea? = nil, attachments: [Attachment]? = nil,
        attachmentsKey: String? = nil
    ) {
        self.text = text
        self.a = a
        self.b = b
        self.attachments = attachments
        self.attachmentsKey = attachmentsKey
    }

    package subscript(name: LockSetName) -> SearchArea? { name == .a ? a : b }

    /// The JSON that is encrypted: compact, keys sorted, padded with spaces to a multiple of `paddingBlock`.
    package func plaintext() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var bytes = [UInt8](try! encoder.encode(self))
        let block = SealedPage.paddingBlock
        bytes += [UInt8](repeating: 0x20, count: (block - bytes.count % block) % block)
        return bytes
    }

    /// Reads decrypted bytes back; nil when they are not content (a key that opened garbage).
    package static func decode(_ bytes: [UInt8]) -> SealedContent? {
        guard let content = try? JSONDecoder().decode(SealedContent.self, from: Data(bytes)),
            Message.pageLengthProblem(content.text) == nil, content.attachmentsAreValid,
            [content.a, content.b].allSatisfy({ $0?.isValidPlace ?? true })
        else { return nil }
        return content
    }
}

extension SealedContent {
    /// A list of files needs its key, and sizes that can add up.
    var attachmentsAreValid: Bool {
        guard let attachments else { return attachmentsKey == nil }
        return attachmentsKey.flatMap { Data(base64Encoded: $0) }?.count == SealedPage.keyBytes
            && attachments.count <= Attachment.maximumCount
            && attachments.allSatisfy { (0...Attachment.totalLimit).contains($0.size) }
            && attachments.reduce(0, { $0 + $1.size }) <= Attachment.totalLimit
    }
}

extension KeySlot {
    /// The wrapped page keys a derived key is tried against: one, or a format 3 place's four.
    package var wrappedKeys: [[UInt8]] {
        switch self {
        case let .sealed(_, _, wrapped): [wrapped]
        case let .cells(_, _, wrapped), let .answers(_, _, wrapped): wrapped
        case .guarded: []
        }
    }
}
