import ChestCore
import ChestIO
import ChestSeal
import Foundation
import Testing

/// Seals: a round trip verifies, and every kind of edit a cheating reader might make is detected.
struct SealerTests {
    static let identity: Identity = {
        let path = NSTemporaryDirectory() + "chest-sealer-\(UUID().uuidString)/identity.json"
        return try! Identity.loadOrCreate(at: path)
    }()

    static func sealed() -> Message {
        let pages = [
            Page(
                text: "Under the oak",
                setA: [
                    .location(center: Coordinate(latitude: 48.85837, longitude: 2.29448), radius: 30),
                    .time(Date(timeIntervalSince1970: 1_800_000_000)),
                ],
                setB: [.pin(hash: Sealer.hashPIN("4821"))])
        ]
        return Sealer.seal(
            Message(
                id: MessageID(bytes: Array(repeating: 7, count: 16)), title: "Birthday", from: "Alice",
                created: Date(timeIntervalSince1970: 1_700_000_000), pages: pages), with: identity)
    }

    @Test func aSealedMessageVerifiesAfterAFileRoundTrip() throws {
        let decoded = try MessageFile.decode(MessageFile.encode(Self.sealed()))
        try Sealer.verify(decoded)
        #expect(decoded == Self.sealed() || decoded.id == Self.sealed().id)
    }

    @Test(arguments: ["radius", "point", "time", "pin", "text", "page", "title", "sender", "key"])
    func everyEditIsDetected(edit: String) throws {
        var message = try MessageFile.decode(MessageFile.encode(Self.sealed()))
        switch edit {
        case "radius":
            message.pages[0].setA[0] = .location(
                center: Coordinate(latitude: 48.85837, longitude: 2.29448), radius: 3000)
        case "point": message.pages[0].setA[0] = .location(center: Coordinate(latitude: 47, longitude: 8), radius: 30)
        case "time": message.pages[0].setA[1] = .time(Date(timeIntervalSince1970: 1_000_000_000))
        case "pin": message.pages[0].setB[0] = .pin(hash: Sealer.hashPIN("0000"))
        case "text": message.pages[0].text = "Under the elm"
        case "page": message.pages.append(Page(text: "extra"))
        case "title": message.title = "Not a birthday"
        case "sender": message.from = "Bob"
        default:
            message.seal?.publicKey = try Identity.loadOrCreate(
                at: NSTemporaryDirectory() + "chest-other-\(UUID())/id.json"
            ).publicKey
        }
        let reread = try MessageFile.decode(MessageFile.encode(message))
        #expect(throws: MessageFormatError.signatureMismatch) { try Sealer.verify(reread) }
    }

    @Test func aPINHashIsSaltedAndChecks() {
        let first = Sealer.hashPIN("4821")
        let second = Sealer.hashPIN("4821")
        #expect(first != second)
        #expect(first.hasPrefix("$argon2id$"))
        #expect(Sealer.pin("4821", matches: first))
        #expect(!Sealer.pin("4822", matches: first))
    }

    @Test func theIdentityFileIsPrivate() throws {
        let path = NSTemporaryDirectory() + "chest-id-\(UUID().uuidString)/identity.json"
        let made = try Identity.loadOrCreate(at: path)
        let again = try Identity.loadOrCreate(at: path)
        #expect(made.publicKey == again.publicKey)
        let mode = (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? 0
        #expect(mode & 0o077 == 0)
    }
}
