import FoundationEssentials

/// The `*.locked` file format, versions 1 to 6 (docs/FORMAT.md): UTF-8 JSON, at most 1 MiB.
package enum MessageFile {
    /// The newest version; every version from 1 up to it is read. `compose` writes it where it changes something (a
    /// PIN or an answer keyed in lanes, a place sealed with a PIN: docs/FORMAT.md "Format 5") and `baseVersion`
    /// otherwise (`written`).
    package static let version = 6
    /// The newest version `compose --format` takes; `startVersion` is written only for a hunt with a start.
    package static let requestable = 5
    /// Format 6: format 5's pages, each sealed under the hunt's start key as well (docs/FORMAT.md "Format 6").
    package static let startVersion = 6
    /// What `compose` writes for a message with neither a PIN nor an answer nor a place sealed with one: the newer
    /// formats would change nothing in it, and readers since format 3 read it.
    package static let baseVersion = 3

    /// The version `compose` writes when asked for `requested`: the lowest from 3 up that holds what the message
    /// needs. 5 for a key in lanes (`keyedInLanes`: a PIN or an answer at the default cost) or a place sealed with a
    /// PIN; asked for 4, 4 only for a place sealed with a PIN; 3 otherwise.
    package static func written(_ requested: Int, placeWithPIN: Bool, keyedInLanes: Bool) -> Int {
        guard requested >= 4 else { return requested }
        guard requested < startVersion else { return startVersion }
        if requested >= 5, placeWithPIN || keyedInLanes { return 5 }
        return placeWithPIN ? 4 : baseVersion
    }
    package static let formatName = "chest-message"
    /// The file without its pages' `attachments` (docs/FORMAT.md "Attachments").
    package static let sizeLimit = 1 << 20
    package static let fileExtension = "locked"

    /// Reads and validates a message file. The signature is checked by the caller (ChestIO's `Sealer`) over
    /// `signedBytes(of:)`.
    package static func decode(_ data: Data) throws(MessageFormatError) -> Message {
        guard !data.isEmpty else { throw .empty }
        guard data.count <= fileLimit else { throw .tooLarge(size: data.count, limit: fileLimit) }
        guard String(validating: data, as: UTF8.self) != nil else { throw .notUTF8 }
        // The common case, a well-formed message, decodes once; anything else is read again for a precise reason.
        if let wire = try? JSONDecoder().decode(WireMessage.self, from: data),
            wire.format == formatName, let version = wire.version, (1...MessageFile.version).contains(version)
        {
            try wire.checkSize(data.count)
            return try wire.message()
        }
        let header: WireHeader
        do {
            header = try JSONDecoder().decode(WireHeader.self, from: data)
        } catch DecodingError.typeMismatch {
            throw .notAMessage
        } catch {
            throw .notJSON(describe(error))
        }
        guard header.format == formatName else { throw .notAMessage }
        guard let versionValue = header.version else { throw .missingField("version") }
        guard case .integer(let version) = versionValue else {
            throw .invalidField("version", "not an integer")
        }
        guard (1...MessageFile.version).contains(version) else { throw .unsupportedVersion(version) }
        let wire: WireMessage
        do {
            wire = try JSONDecoder().decode(WireMessage.self, from: data)
        } catch {
            throw .notJSON(describe(error))
        }
        try wire.checkSize(data.count)
        return try wire.message()
    }

    /// The file's bytes: pretty-printed, keys sorted, ending in a newline.
    package static func encode(_ message: Message) -> Data {
        var data = try! prettyEncoder.encode(WireMessage(message, includingSignature: true))
        data.append(0x0a)
        return data
    }

    /// The bytes a seal signs: everything but the signature, in one canonical compact form.
    package static func signedBytes(of message: Message) -> Data {
        try! canonicalEncoder.encode(WireMessage(message, includingSignature: false))
    }

    /// Validates a message built in memory (by `compose`) with the same rules as a file.
    package static func validate(_ message: Message) throws(MessageFormatError) {
        _ = try WireMessage(message, includingSignature: true).message(requireSeal: false)
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context):
            context.underlyingError.map { "\($0)" }
                ?? context.debugDescription
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "\(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)"
        case DecodingError.keyNotFound(let key, _): "missing \"\(key.stringValue)\""
        default: "\(error)"
        }
    }
}

// MARK: - The wire form

/// The two fields that say whether a file is a message at all, read before anything else so that a file of another
/// format or version gets that reason rather than a decoder's.
struct WireHeader: Decodable {
    enum Version { case integer(Int), other }
    var format: String?
    var version: Version?

    private enum CodingKeys: String, CodingKey { case format, version }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        format = try? fields.decode(String.self, forKey: .format)
        guard fields.contains(.version) else { return }
        version = (try? fields.decode(Int.self, forKey: .version)).map(Version.integer) ?? .other
    }
}

/// Every field optional, so that a missing one gets its own precise error rather than a decoder's.
struct WireMessage: Codable {
    var format: String?
    var version: Int?
    var id: String?
    var title: String?
    var from: String?
    var created: String?
    var pages: [WirePage]?
    var publicKey: String?
    var signature: String?
    /// "hardware" when the organiser asked for it (docs/FORMAT.md "Fields"); absent otherwise, so the signed
    /// bytes of every other message are unchanged.
    var require: String?

    init(_ message: Message, includingSignature: Bool) {
        require = message.requiresHardware ? "hardware" : nil
        format = MessageFile.formatName
        version = message.version
        id = message.id.rawValue
        title = message.title
        from = message.from
        created = ISO8601.string(message.created)
        pages = message.pages.map { WirePage($0, version: message.version) }
        publicKey = message.seal.map { Data($0.publicKey).base64EncodedString() }
        signature = includingSignature ? message.seal.map { Data($0.signature).base64EncodedString() } : nil
    }

    func message(requireSeal: Bool = true) throws(MessageFormatError) -> Message {
        guard let idText = id else { throw .missingField("id") }
        guard let id = MessageID(idText) else { throw .invalidField("id", "not 32 lowercase hexadecimal digits") }
        guard let title else { throw .missingField("title") }
        guard !title.trimmed().isEmpty else { throw .titleEmpty }
        // Unicode scalars, not characters: 150,000 combining marks on one letter are one character.
        guard title.unicodeScalars.count <= Message.maximumTitleLength else {
            throw .titleTooLong(title.unicodeScalars.count)
        }
        guard let from else { throw .missingField("from") }
        guard from.unicodeScalars.count <= Message.maximumSenderLength else {
            throw .invalidField("from", "\(from.unicodeScalars.count) characters, over \(Message.maximumSenderLength)")
        }
        guard let createdText = created else { throw .missingField("created") }
        guard let created = ISO8601.parse(createdText) else { throw .invalidField("created", "not an ISO 8601 time") }
        guard let wirePages = pages else { throw .missingField("pages") }
        guard (1...Message.maximumPages).contains(wirePages.count) else { throw .pageCount(wirePages.count) }
        var pages = PageList()
        for (index, wirePage) in wirePages.enumerated() {
            let page = try wirePage.page(number: index + 1, version: version ?? 1)
            // A page may wait only for an earlier page of its own message, so a message never waits for itself.
            for lock in page.setA + page.setB {
                if let link = lock.pageLink, link.message == id, link.page >= index + 1 {
                    throw .invalidField(
                        "pages[\(index + 1)].after", "a page can wait only for an earlier page of its message")
                }
            }
            pages.append(page)
        }
        if let problem = SealBudget.problem(pages) { throw .overSealBudget(problem) }
        var seal: Seal?
        switch (publicKey, signature) {
        case let (key?, signature?):
            guard let keyBytes = Data(base64Encoded: key), keyBytes.count == 32 else {
                throw .invalidField("publicKey", "not a base64 Ed25519 public key")
            }
            guard let signatureBytes = Data(base64Encoded: signature), signatureBytes.count == 64 else {
                throw .invalidField("signature", "not a base64 Ed25519 signature")
            }
            seal = Seal(publicKey: [UInt8](keyBytes), signature: [UInt8](signatureBytes))
        case (nil, nil) where !requireSeal:
            seal = nil
        case (nil, _):
            throw requireSeal ? .unsealed : .missingField("publicKey")
        case (_, nil):
            throw .unsealed
        }
        guard require == nil || require == "hardware" else {
            throw .invalidField("require", "unknown requirement \"\(require ?? "")\"; this chest knows \"hardware\"")
        }
        return Message(
            id: id, title: title, from: from, created: created, pages: pages, seal: seal,
            requiresHardware: require == "hardware")
    }
}

struct WirePage: Codable {
    var text: String?
    var a: [WireLock]?
    var b: [WireLock]?
    /// Format 2 (WirePage+Version2.swift).
    var ciphertext: String?
    var keyA: WireKeySlot?
    var keyB: WireKeySlot?
    /// Formats 2 and 3: base64 of the page's sealed attachments (MessageFile+Attachments.swift).
    var attachments: String?
    /// Formats 2 and 3: the page's hints (WirePage+Hints.swift).
    var hints: [WireHint]?
    /// The page's question and points (WirePage+Game.swift); absent when the organiser gave none.
    var question: String?
    var points: Int?

    init(_ page: Page, version: Int) {
        question = page.question
        points = page.points
        a = WirePage.locks(page, .a, version: version)
        b = WirePage.locks(page, .b, version: version)
        if let sealed = page.sealed {
            setSealed(sealed)
            attachments = page.attachments?.ciphertext.map { Data($0).base64EncodedString() }
            hints = WirePage.wireHints(page)
        } else {
            text = page.text
        }
    }

    func page(number: Int, version: Int) throws(MessageFormatError) -> Page {
        var page = try unlabelledPage(number: number, version: version)
        page.labels = try labels(page, number: number)
        page.hints = try pageHints(number: number, version: version)
        (page.question, page.points) = try game(number: number)
        return page
    }

    private func unlabelledPage(number: Int, version: Int) throws(MessageFormatError) -> Page {
        if version >= 2 { return try sealedPage(number: number, version: version) }
        for (field, value) in [
            ("ciphertext", ciphertext as Any?), ("keyA", keyA), ("keyB", keyB), ("attachments", attachments),
        ] where value != nil {
            throw .wrongVersionField(version: 1, field: "pages[\(number)].\(field)")
        }
        guard let text else { throw .missingField("pages[\(number)].text") }
        guard text.unicodeScalars.count <= Message.maximumPageLength else {
            throw .pageTooLong(page: number, text.unicodeScalars.count)
        }
        return Page(
            text: text, setA: try locks(a, .a, number: number, version: 1),
            setB: try locks(b, .b, number: number, version: 1))
    }

    /// One set's locks, at most one of each type.
    func locks(_ wireLocks: [WireLock]?, _ name: LockSetName, number: Int, version: Int) throws(MessageFormatError)
        -> [Lock]
    {
        var seen: Set<LockKind> = []
        var locks: [Lock] = []
        for wireLock in wireLocks ?? [] {
            let lock = try wireLock.lock(page: number, version: version)
            guard seen.insert(lock.kind).inserted else {
                throw .duplicateLock(page: number, set: name, kind: lock.kind)
            }
            locks.append(lock)
        }
        return locks
    }
}
