import ChestCore
import ChestIO
import ChestSeal
import Foundation
import Testing

/// A page's files sealed with it (docs/FORMAT.md "Attachments"): in the file only as ciphertext, read back whole
/// with the key the page's content holds, and nowhere else.
@Suite struct AttachmentSealerTests {
    static let id = MessageID("0123456789abcdef0123456789abcdef")!
    static let files = [
        AttachedFile(
            name: "oak.png", bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Sealer.randomBytes(5000)),
        AttachedFile(name: "notes.txt", bytes: Array("forty paces north".utf8)),
    ]

    /// A guarded page (its key in the clear), so the content opens without Argon2id.
    static func message(_ files: [AttachedFile] = files) throws -> Message {
        let page = PageSealer.sealed(
            text: "open", setA: .init(locks: []), setB: .init(locks: []), id: id, page: 1, files: files
        ).page
        let identity = try Identity.loadOrCreate(
            at: NSTemporaryDirectory() + "/chest-attach-\(UUID().uuidString)/identity.json")
        return Sealer.seal(
            Message(id: id, title: "t", from: "f", created: Date(timeIntervalSince1970: 0), pages: [page]),
            with: identity)
    }

    static func content(_ page: Page) -> SealedContent? {
        guard let request = KeyRequest(id: id, page: 1, set: .a, of: page.sealed!),
            case let .opened(content) = PageSealer.open(request)
        else { return nil }
        return content
    }

    @Test func theFilesComeBackWholeFromTheFileWithTheContentsKey() throws {
        let data = MessageFile.encode(try Self.message())
        let text = String(decoding: data, as: UTF8.self)
        #expect(!text.contains("oak.png") && !text.contains("notes.txt"))
        let message = try MessageFile.decode(data)
        try Sealer.verify(message)
        let content = try #require(Self.content(message.pages[0]))
        #expect(
            content.attachments == [
                Attachment(name: "oak.png", type: "image/png", size: 5008),
                Attachment(name: "notes.txt", type: "application/octet-stream", size: 17),
            ])
        let opened = try AttachmentSealer.open(message.pages[0], number: 1, content: content, id: Self.id)
        #expect(opened.map(\.bytes) == Self.files.map(\.bytes))
        // Padded: the ciphertext says only that the files come to at most 8 KiB.
        #expect(message.pages[0].attachments?.size == SealedAttachments.paddedLength(5025) + 40)
        // Another page's or message's AD does not open it.
        #expect(throws: ChestError.self) {
            try AttachmentSealer.open(message.pages[0], number: 2, content: content, id: Self.id)
        }
    }

    @Test func chestdsCopyKeepsTheSizeButNotTheBytesAndTheSealStillCoversThem() throws {
        let message = try MessageFile.decode(MessageFile.encode(try Self.message()))
        let kept = message.leavingAttachmentsInFile()
        #expect(kept.pages[0].attachments?.ciphertext == nil)
        #expect(kept.pages[0].attachments?.size == message.pages[0].attachments?.size)
        let content = try #require(Self.content(kept.pages[0]))
        #expect(throws: ChestError("page 1's attachments are not in the message file; import the original file again"))
        {
            try AttachmentSealer.open(kept.pages[0], number: 1, content: content, id: Self.id)
        }
        // Swapping the attachments for others breaks the seal.
        var other = try MessageFile.decode(
            MessageFile.encode(try Self.message([AttachedFile(name: "x", bytes: [1, 2, 3])])))
        other.seal = message.seal
        #expect(throws: MessageFormatError.signatureMismatch) { try Sealer.verify(other) }
    }

    @Test func oldFilesReadWithoutAttachmentsAndFormatOneRefusesTheField() throws {
        let plain = try MessageFile.decode(MessageFile.encode(try Self.message([])))
        #expect(plain.pages[0].attachments == nil)
        #expect(!String(decoding: MessageFile.encode(plain), as: UTF8.self).contains("attachments"))
        let v1 =
            #"{"format":"chest-message","version":1,"id":"0123456789abcdef0123456789abcdef","title":"t","from":"f","created":"2026-01-01T00:00:00Z","pages":[{"text":"x","a":[],"b":[],"attachments":"AAAA"}],"publicKey":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=","signature":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=="}"#
        #expect(throws: MessageFormatError.wrongVersionField(version: 1, field: "pages[1].attachments")) {
            try MessageFile.decode(Data(v1.utf8))
        }
        let text = String(decoding: MessageFile.encode(try Self.message()), as: UTF8.self)
        let short = text.replacingOccurrences(
            of: #""attachments" : "[^"]*""#, with: #""attachments" : "AAAA""#,
            options: .regularExpression)
        #expect(short != text)
        #expect(
            throws: MessageFormatError.sealedPart(
                page: 1, "the attachments are not base64 of a nonce, padded files and a tag")
        ) {
            try MessageFile.decode(Data(short.utf8))
        }
    }
}
