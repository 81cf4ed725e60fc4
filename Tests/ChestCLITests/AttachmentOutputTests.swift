import ChestCore
import ChestIO
import Foundation
import Testing

@testable import ChestCLI

/// How `watch` lists a page's files for a person: name, type and size, the sender's name escaped (`read`'s list is
/// checked end to end in AttachmentTests).
@Suite struct AttachmentOutputTests {
    static let files = [
        Attachment(name: "oak.jpg", type: "image/jpeg", size: 1234),
        Attachment(name: "evil\u{1B}[2J.txt", type: "application/octet-stream", size: 12),
    ]

    @Test func watchListsAnOpenedPagesFilesUnderItsText() {
        var printer = EventPrinter(timeZone: Zone(identifier: "UTC")!, colour: false)
        let unlock = Unlock(
            id: MessageID(bytes: [UInt8](repeating: 1, count: 16)), title: "Walk", page: 2, set: .a,
            at: Date(timeIntervalSince1970: 0), text: "Under the oak.", attachments: Self.files)
        let lines = printer.text(.unlocked(unlock), receivedAt: Date()).split(separator: "\n").map(String.init)
        #expect(
            lines.dropFirst() == [
                "          Under the oak.", "          attached: oak.jpg · image/jpeg · 1.2 KB",
                #"          attached: evil\e[2J.txt · application/octet-stream · 12 bytes"#,
            ])
    }
}
