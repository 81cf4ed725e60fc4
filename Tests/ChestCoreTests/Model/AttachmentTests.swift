import Foundation
import Testing

@testable import ChestCore

/// What a page's files are and how their names are made safe (docs/FORMAT.md "Attachments").
@Suite struct AttachmentFormatTests {
    @Test func mediaTypesComeFromTheFirstBytesNotTheName() {
        #expect(Attachment.mediaType(of: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]) == "image/png")
        #expect(Attachment.mediaType(of: [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]) == "image/jpeg")
        #expect(Attachment.mediaType(of: Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == "image/webp")
        #expect(Attachment.mediaType(of: Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8)) == "application/octet-stream")
        #expect(Attachment.mediaType(of: Array("just text".utf8)) == "application/octet-stream")
        #expect(Attachment.mediaType(of: [UInt8]()) == "application/octet-stream")
        #expect(Attachment.mediaType(of: [0x89, 0x50, 0x4E]) == "application/octet-stream")
    }

    @Test(arguments: [
        ("photo.png", "photo.png"),
        ("../../etc/passwd", "_.._etc_passwd"),
        ("..", "attachment"),
        (".", "attachment"),
        (".hidden", "hidden"),
        ("a\\b", "a_b"),
        ("red\u{1B}[31m.txt", "red[31m.txt"),
        ("evil\u{202E}gnp.exe", "evilgnp.exe"),
        ("line\nbreak", "linebreak"),
        ("  spaced  ", "spaced"),
        ("\u{0}", "attachment"),
        ("Sé à Lisboa.jpg", "Sé à Lisboa.jpg"),
    ])
    func namesAreMadeSafe(_ given: String, _ expected: String) {
        #expect(Attachment.safeName(given) == expected)
    }

    @Test func longNamesAreCutKeepingTheirExtension() {
        let name = Attachment.safeName(String(repeating: "é", count: 300) + ".jpeg")
        #expect(name.utf8.count <= 255)
        #expect(name.hasSuffix(".jpeg"))
    }

    @Test func aTakenNameGetsANumberBeforeItsExtension() {
        let taken: Set = ["map.png", "map-2.png", "notes", ".png"]
        #expect(Attachment.freeName("map.png", taken: taken.contains) == "map-3.png")
        #expect(Attachment.freeName("notes", taken: taken.contains) == "notes-2")
        #expect(Attachment.freeName("free.txt", taken: taken.contains) == "free.txt")
        #expect(Attachment.freeName("a.tar.gz", taken: { $0 == "a.tar.gz" }) == "a.tar-2.gz")
    }

    @Test func paddingIsPadmeFromFourKiB() {
        #expect(SealedAttachments.paddedLength(0) == 4096)
        #expect(SealedAttachments.paddedLength(4096) == 4096)
        #expect(SealedAttachments.paddedLength(4097) == 4352)
        #expect(SealedAttachments.paddedLength(150_008) == 151_552)
        #expect(SealedAttachments.paddedLength(Attachment.totalLimit) == Attachment.totalLimit)
        for length in [5000, 70_000, 1_000_001, Attachment.totalLimit - 1] {
            let padded = SealedAttachments.paddedLength(length)
            #expect(padded >= length && Double(padded - length) <= Double(length) * 0.07, "\(length) -> \(padded)")
            #expect(SealedAttachments.paddedLength(padded) == padded)
        }
        // Every message's files fit the sealed limit however they are spread over pages.
        let spread = (0..<Message.maximumPages).map { _ in
            SealedAttachments.paddedLength(Attachment.totalLimit / 5) + 40
        }
        #expect(spread.reduce(0, +) <= SealedAttachments.sealedLimit)
        #expect(SealedAttachments.paddedLength(Attachment.totalLimit) + 40 <= SealedAttachments.sealedLimit)
    }

    @Test func contentWithoutAttachmentsReadsAsBeforeAndAListNeedsItsKey() throws {
        let old = SealedContent.decode(Array(#"{"text":"Under the oak"}"#.utf8) + [UInt8](repeating: 0x20, count: 200))
        #expect(old?.text == "Under the oak")
        #expect(old?.attachments == nil)
        let key = Data(repeating: 7, count: 32).base64EncodedString()
        let listed = SealedContent(
            text: "t", attachments: [Attachment(name: "a.png", type: "image/png", size: 10)], attachmentsKey: key)
        #expect(SealedContent.decode(listed.plaintext()) == listed)
        var keyless = listed
        keyless.attachmentsKey = nil
        #expect(SealedContent.decode(keyless.plaintext()) == nil)
        var huge = listed
        huge.attachments = [Attachment(name: "a", type: "x", size: Attachment.totalLimit + 1)]
        #expect(SealedContent.decode(huge.plaintext()) == nil)
    }

    @Test func aQuestPageTakesAttachLines() throws {
        let quest = try QuestParser(
            timeZone: .utc, pageText: { _ in "" }, waypoint: { _, _ in Coordinate(latitude: 0, longitude: 0) }
        )
        .parse("message: m\ntitle: T\npage: one\nattach: pictures/oak.jpg\n  attach: notes.txt\n")
        #expect(
            quest.messages[0].pages[0].attachments == [
                QuestAttachment(path: "pictures/oak.jpg", line: 4),
                QuestAttachment(path: "notes.txt", line: 5),
            ])
        let ids = ["m": MessageID(bytes: [UInt8](repeating: 1, count: 16))]
        #expect(quest.drafts(ids: ids)[0].pages[0].attachments == ["pictures/oak.jpg", "notes.txt"])
        var parser = QuestParser(
            timeZone: .utc, pageText: { _ in "" }, waypoint: { _, _ in Coordinate(latitude: 0, longitude: 0) })
        parser.attachment = { path in
            guard path != "gone.png" else { throw QuestError(line: 0, field: "", "no such file") }
            return "/quest/" + path
        }
        #expect(
            throws: QuestErrors([
                QuestError(
                    line: 3, field: "attach", "comes before any page; write page: TEXT first, then the files it carries"
                ),
                QuestError(line: 5, field: "attach", "gone.png: 0: : no such file"),
            ])
        ) {
            try parser.parse("message: m\ntitle: T\nattach: a.png\npage: one\nattach: gone.png\nattach: here.png\n")
        }
        #expect(
            try parser.parse("message: m\ntitle: T\npage: one\nattach: here.png\n").messages[0].pages[0].attachments
                == [QuestAttachment(path: "/quest/here.png", line: 4)])
    }
}
