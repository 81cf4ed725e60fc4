import struct FoundationEssentials.Date

/// A locked message: a title, the sender's name and 1 to 5 pages (docs/DESIGN.md "Messages and locks").
package struct Message: Hashable, Sendable {
    package var id: MessageID
    package var title: String
    /// The sender's name, "Sender" when they set none.
    package var from: String
    package var created: Date
    package var pages: PageList
    /// Who sealed it and how; `nil` only while composing.
    package var seal: Seal?
    /// The organiser asked for hardware (`compose --require hardware`, a signed field): location and altitude
    /// locks latch only from `hardware` fixes (docs/SECURITY.md "Hardware trust and time").
    package var requiresHardware: Bool

    package init(
        id: MessageID, title: String, from: String, created: Date, pages: some Sequence<Page>, seal: Seal? = nil
    ) {
        self.init(id: id, title: title, from: from, created: created, pages: pages, seal: seal, requiresHardware: false)
    }

    package init(
        id: MessageID, title: String, from: String, created: Date, pages: some Sequence<Page>, seal: Seal?,
        requiresHardware: Bool
    ) {
        self.requiresHardware = requiresHardware
        self.id = id
        self.title = title
        self.from = from
        self.created = created
        self.pages = PageList(pages)
        self.seal = seal
    }

    /// The file format: the sealed pages' (2 or 3, docs/FORMAT.md), else 1.
    package var version: Int { pages.first?.sealed?.version ?? 1 }

    package static let maximumPages = 5
    package static let defaultSender = "Sender"
    /// Title, sender and page lengths count Unicode scalars.
    package static let maximumTitleLength = 200
    package static let maximumSenderLength = 100
    package static let maximumPageLength = 20_000

    /// Why a page's text is too long for any reader, or nil: the one rule `compose` and readers share.
    package static func pageLengthProblem(_ text: String) -> String? {
        let length = text.unicodeScalars.count
        guard length > maximumPageLength else { return nil }
        return
            "the text has \(length) characters, over the \(maximumPageLength)-character limit of a page; shorten it or split it over pages"
    }
}

/// The sender's Ed25519 public key and their signature over everything a reader must not change.
package struct Seal: Hashable, Sendable {
    // The key in a buffer that the engine's table shares between one sender's messages (`MessageTable`), and the
    // signature parked with the sealed pages' bytes (`ParkedBytes`): read only when the file is written again or a
    // receipt quotes it, it took 64 bytes in line in each of the table's messages (docs/BENCHMARKS.md "Memory").
    private var key: [UInt8]
    private var signed: ParkedBytes

    /// 32 bytes.
    package var publicKey: [UInt8] {
        get { key }
        set {
            precondition(newValue.count == 32)
            key = newValue
        }
    }

    /// 64 bytes; zeros, which verify nothing, when the parking's file can no longer be read.
    package var signature: [UInt8] {
        get { signed.bytes ?? [UInt8](repeating: 0, count: 64) }
        set {
            precondition(newValue.count == 64)
            signed = ParkedBytes(newValue)
        }
    }

    /// Whether the signature is parked, not in memory.
    package var signatureIsParked: Bool { signed.isParked }

    /// Whether the seal was made by this public key.
    package func isMade(by key: [UInt8]) -> Bool { self.key == key }

    package init(publicKey: [UInt8], signature: [UInt8]) {
        precondition(publicKey.count == 32 && signature.count == 64)
        key = publicKey
        signed = ParkedBytes(signature)
    }

    /// The same seal holding `key`, an equal key's buffer shared with other messages.
    mutating func share(_ key: [UInt8]) {
        if key == self.key { self.key = key }
    }
}
