import FoundationEssentials

/// A signed record of one unlock (docs/FORMAT.md "Unlock receipts"): which message and page opened, when, by
/// which set, and the evidence chestd saw, signed with the reader's Ed25519 identity. The organiser checks it
/// with `chest verify` against the message file they sent.
package struct UnlockReceipt: Hashable, Sendable, Codable {
    package static let formatName = "chest-receipt"
    /// 2 added `proof`; version 1 receipts (no proof) are still read, and never credited by a board.
    package static let version = 2
    package static let versions = 1...2

    package var format: String
    package var version: Int
    package var message: MessageID
    /// The sender's signature of the message, base64: names that exact message, not only its ID.
    package var messageSignature: String
    package var title: String
    package var page: Int
    package var set: LockSetName?
    package var openedAt: Date
    package var evidence: UnlockEvidence
    /// The reader's Ed25519 public key, base64.
    package var reader: String
    /// The proof of opening (docs/HUNTS.md "Proof of opening"), base64: a MAC under a key derived from the page
    /// key over `provenBytes`; nil when the page key was not known (a format 1 page, a page opened before proofs).
    package var proof: String?
    /// Ed25519 over `signedBytes`, base64; nil until signed.
    package var signature: String?

    package init(
        message: MessageID, messageSignature: String, title: String, page: Int, set: LockSetName?,
        openedAt: Date, evidence: UnlockEvidence, reader: String
    ) {
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

    /// The bytes the signature covers: the receipt without its signature in canonical form (docs/HUNTS.md
    /// "Canonical form"): compact JSON, keys sorted, times as `ISO8601.string` writes them.
    package var signedBytes: Data {
        var unsigned = self
        unsigned.signature = nil
        return try! Self.encoder(pretty: false).encode(unsigned)
    }

    /// The bytes the proof covers: the receipt without its signature and its proof, in the same canonical form.
    package var provenBytes: Data {
        var unproven = self
        unproven.signature = nil
        unproven.proof = nil
        return try! Self.encoder(pretty: false).encode(unproven)
    }

    /// The file's bytes: pretty-printed, keys sorted, ending in a newline.
    package var fileBytes: Data {
        var data = try! Self.encoder(pretty: true).encode(self)
        data.append(0x0a)
        return data
    }

    /// Reads a receipt file; throws a sentence saying what is wrong.
    package static func decode(_ data: Data) throws(ReceiptError) -> UnlockReceipt {
        guard data.count <= MessageFile.sizeLimit else { throw ReceiptError("the file is too large for a receipt") }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = ISO8601.parse(text) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: "not a time: \(text)"))
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
        guard versions.contains(receipt.version) else {
            throw ReceiptError("receipt version \(receipt.version) is not supported")
        }
        return receipt
    }

    /// Why this receipt does not belong to `message`, or nil when it does.
    package func mismatch(with message: Message) -> String? {
        guard self.message == message.id else { return "the receipt is for message \(self.message), not \(message.id)" }
        guard let seal = message.seal, Data(seal.signature).base64EncodedString() == messageSignature else {
            return "the receipt names another version of message \(message.id) (its seal differs)"
        }
        guard message.pages.indices.contains(page - 1) else {
            return "the message has \(message.pages.count) pages; the receipt is for page \(page)"
        }
        if let set, message.pages[page - 1][set].isEmpty {
            return "page \(page) has no set \(set.rawValue.uppercased())"
        }
        return nil
    }

    private static func encoder(pretty: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty
            ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ISO8601.string(date))
        }
        return encoder
    }
}

/// Why a receipt cannot be read or does not verify.
package struct ReceiptError: Error, Hashable, Sendable, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
