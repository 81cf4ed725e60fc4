import Foundation

/// A signed record of one unlock (docs/FORMAT.md "Unlock receipts"): which message and page opened, when, by
/// which set, and the evidence chestd saw, signed with the reader's Ed25519 identity. The organiser checks it
/// with `chest verify` against the message file they sent.
public struct UnlockReceipt: Hashable, Sendable, Codable {
    public static let formatName = "chest-receipt"
    public static let version = 1

    public var format: String
    public var version: Int
    public var message: MessageID
    /// The sender's signature of the message, base64: names that exact message, not only its ID.
    public var messageSignature: String
    public var title: String
    public var page: Int
    public var set: LockSetName?
    public var openedAt: Date
    public var evidence: UnlockEvidence
    /// The reader's Ed25519 public key, base64.
    public var reader: String
    /// Ed25519 over `signedBytes`, base64; nil until signed.
    public var signature: String?

    public init(message: MessageID, messageSignature: String, title: String, page: Int, set: LockSetName?,
                openedAt: Date, evidence: UnlockEvidence, reader: String) {
        format = Self.formatName
        version = Self.version
        self.message = message
        self.messageSignature = messageSignature
        self.title = title
        self.page = page
        self.set = set
        self.openedAt = openedAt
        self.evidence = evidence
        self.reader = reader
    }

    /// The bytes the signature covers: the receipt without its signature, compact JSON, keys sorted.
    public var signedBytes: Data {
        var unsigned = self
        unsigned.signature = nil
        return try! Self.encoder(pretty: false).encode(unsigned)
    }

    /// The file's bytes: pretty-printed, keys sorted, ending in a newline.
    public var fileBytes: Data {
        var data = try! Self.encoder(pretty: true).encode(self)
        data.append(0x0a)
        return data
    }

    /// Reads a receipt file; throws a sentence saying what is wrong.
    public static func decode(_ data: Data) throws(ReceiptError) -> UnlockReceipt {
        guard data.count <= MessageFile.sizeLimit else { throw ReceiptError("the file is too large for a receipt") }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = ISO8601.parse(text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a time: \(text)"))
            }
            return date
        }
        let receipt: UnlockReceipt
        do {
            receipt = try decoder.decode(UnlockReceipt.self, from: data)
        } catch {
            throw ReceiptError("not a chest receipt: \(error)")
        }
        guard receipt.format == formatName else { throw ReceiptError("not a chest receipt") }
        guard receipt.version == version else { throw ReceiptError("receipt version \(receipt.version) is not supported") }
        return receipt
    }

    /// Why this receipt does not belong to `message`, or nil when it does.
    public func mismatch(with message: Message) -> String? {
        guard self.message == message.id else { return "the receipt is for message \(self.message), not \(message.id)" }
        guard let seal = message.seal, Data(seal.signature).base64EncodedString() == messageSignature else {
            return "the receipt names another version of message \(message.id) (its seal differs)"
        }
        guard message.pages.indices.contains(page - 1) else {
            return "the message has \(message.pages.count) pages; the receipt is for page \(page)"
        }
        if let set, message.pages[page - 1][set].isEmpty { return "page \(page) has no set \(set.rawValue.uppercased())" }
        return nil
    }

    private static func encoder(pretty: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ISO8601.string(date))
        }
        return encoder
    }
}

/// Why a receipt cannot be read or does not verify.
public struct ReceiptError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
