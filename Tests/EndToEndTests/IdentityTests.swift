import ChestCore
import ChestIO
import ChestSeal
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// Issue 61, finding 4 (docs/SECURITY.md "Round five (issue 61)"): a copy of a message sealed again by a stranger's
/// key, same ID, same pages, the sender's name, and imported first, no longer keeps the sender's own message out.
/// A message is its sender's key and its ID: both stay, each under a chest ID of its own, through `chest import`,
/// the inbox and a restart. A reader who joined a hunt refuses such a copy of the hunt's message, sets aside one
/// that came first, sends the real one's receipt to the board, and gives the organiser's name back to its key.
@Suite(.realProcesses, .tags(.process), .serialized, .timeLimit(.minutes(5)))
struct IdentityTests {
    /// `path`'s message sealed again by `identity`, as a stranger re-signs a file: written to `copy`.
    static func reSign(_ path: String, with identity: Identity, to copy: String) throws -> Message {
        let original = try MessageFile.decode(Data(contentsOf: URL(fileURLWithPath: path)))
        let forged = Sealer.seal(original, with: identity)
        #expect(forged.id == original.id && forged.from == original.from && forged.pages == original.pages)
        try MessageFile.encode(forged).write(to: URL(fileURLWithPath: copy))
        return original
    }

    static func key(_ message: Message) -> String { Data(message.seal!.publicKey).base64EncodedString() }

    @Test func aReSignedCopyImportedFirstNoLongerKeepsTheSendersMessageOut() throws {
        let world = ChestHarness()
        try world.startDaemon()
        #expect(try world.chest(["config", "name", "Organiser"], user: "organiser").status == 0)
        let real = world.root + "/clue.locked"
        let made = try world.chest(
            [
                "compose", "--seal-cost", "interactive", "--title", "Clue 1", "--page", "Under the old oak.",
                "--lock", "pin=4821", "-o", real,
            ], user: "organiser")
        #expect(made.status == 0, "\(made.stderr)")
        let id = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let mallory = try MessageFactory(configDirectory: world.root + "/mallory")
        let forged = world.root + "/copy.locked"
        let original = try Self.reSign(real, with: mallory.identity, to: forged)

        // The copy first, by chest import; then the real file, dropped into the inbox: taken in beside it.
        let first = try world.chest(["import", forged])
        #expect(first.status == 0 && first.stdout == id + "\n", "\(first.stderr)")
        try FileManager.default.copyItem(atPath: real, toPath: world.chest + "/clue.locked.part")
        try FileManager.default.moveItem(
            atPath: world.chest + "/clue.locked.part", toPath: world.chest + "/clue.locked")
        // Waited for on disk: `list` would meet the copy's sender alone meanwhile and record its key for the name.
        try world.waitUntil("the sender's message is in beside the copy", timeout: 30) {
            world.names(in: "messages").count == 2
        }
        #expect(world.names(in: "rejected").isEmpty)
        let rows = try world.list()
        let realRow = try #require(rows.first { $0["senderKey"]?.string == Self.key(original) })
        let copyRow = try #require(rows.first { $0["senderKey"]?.string == mallory.identity.publicKeyBase64 })
        let filed = try #require(realRow["id"]?.string)
        #expect(filed != id && copyRow["id"]?.string == id)
        #expect(realRow["messageID"]?.string == id && copyRow["messageID"] == nil)
        #expect(realRow["sameID"]?.strings == [id] && copyRow["sameID"]?.strings == [filed])

        // Each opens by its own chest ID: the real one's keys are sealed with the ID in its file.
        let pin = try world.chest(["pin", filed, "4821"])
        #expect(pin.status == 0 && pin.stdout.contains("PIN accepted"), "\(pin.stdout)\(pin.stderr)")
        let read = try world.chest(["read", filed])
        #expect(read.stdout.contains("Under the old oak."), "\(read.stdout)")
        #expect(read.stdout.contains("filed as \(filed.prefix(8))"), "\(read.stdout)")
        #expect(read.stdout.contains("one of them is a copy"), "\(read.stdout)")
        let readJSON =
            JSON.object(try world.chest(["read", "--json", filed]).stdout) ?? [:]
        #expect(readJSON["messageID"]?.string == id && readJSON["sameID"]?.strings == [id], "\(readJSON)")
        // Both flagged in the list; neither key is taken for the name, and trusting one is refused.
        let list = try world.chest(["list"])
        #expect(list.stdout.components(separatedBy: "one of them is a copy").count == 3, "\(list.stdout)")
        #expect(!(try world.chest(["senders", "list", "--json"]).stdout.contains("Organiser")))
        let trust = try world.chest(["senders", "trust", filed])
        #expect(trust.status == 1 && trust.stderr.contains("one of them is a copy"), "\(trust.stderr)")

        // Each file again is a duplicate of itself.
        let again = try world.chest(["import", forged])
        #expect(again.status == 1 && again.stderr.contains("message \(id.prefix(8)) \"Clue 1\" is already"))
        let realAgain = try world.chest(["import", real])
        #expect(realAgain.status == 1 && realAgain.stderr.contains("message \(filed.prefix(8)) \"Clue 1\" is already"))

        // A restart files each under the chest ID its file is named by, with what it opened.
        _ = world.stopDaemon()
        try world.startDaemon()
        let after = try world.list()
        #expect(Set(after.compactMap { $0["id"]?.string }) == [id, filed])
        #expect(after.first { $0["id"]?.string == filed }?["openPages"]?.ints == [1])
        #expect(after.first { $0["id"]?.string == id }?["openPages"]?.ints == [])
    }
}

/// The same attack on a hunt, over a real Mosquitto broker with the organiser's board running.
@Suite(.realProcesses, .tags(.process, .mosquitto), .serialized, .timeLimit(.minutes(5)))
struct HuntIdentityTests {
    @Test func aJoinedReaderSetsTheCopyAsideTakesTheOrganisersMessageAndTheBoardCreditsIt() throws {
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        let hunt = try HuntWorld(teams: ["red"], broker: broker)
        let red = hunt.teams[0]
        #expect(try hunt.organiser(["config", "name", "Organiser"]).status == 0)
        let board = try hunt.startBoard()
        defer { hunt.stopBoard(board) }
        let file = try HuntFile.read(path: hunt.huntPath)
        let receipts = try hunt.subscribe("chest/\(file.id)/red/receipt/+", count: 1)
        defer {
            receipts.process.terminate()
        }
        // A page of the hunt that opens as soon as it is in; a stranger's copy of it under the organiser's name.
        let real = try hunt.compose("gift", ["--lock", "time=2020-01-01T00:00:00Z"])
        let id = try #require(hunt.ids["gift"])
        let stranger = try MessageFactory(configDirectory: hunt.organiserWorld.root + "/stranger")
        let forged = red.world.root + "/gift-copy.locked"
        let original = try IdentityTests.reSign(real, with: stranger.identity, to: forged)
        #expect(original.from == "Organiser")
        try red.startConnected()

        // The copy first: nothing says yet that its ID is the hunt's. Its page opens; `list` meets the organiser's
        // name under the stranger's key first.
        let first = try red.world.chest(["import", forged])
        #expect(first.status == 0, "\(first.stderr)")
        try red.world.waitUntil("the copy's page opens", timeout: 30) {
            try red.world.list().first?["openPages"]?.ints == [1]
        }
        #expect(try red.world.chest(["list"]).status == 0)

        // The organiser's file: taken in, and the copy set aside with the reason.
        let second = try red.world.chest(["import", real])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("set aside \(id.prefix(8))"), "\(second.stderr)")
        // Met now, the organiser's message takes its name back from the stranger's key, and chest says so.
        let met = try red.world.chest(["list"])
        #expect(met.stderr.contains("Organiser is now the key of the hunt's organiser"), "\(met.stderr)")
        #expect(!met.stdout.contains("not the key you had before"), "\(met.stdout)")
        try red.world.waitUntil("only the organiser's message is in", timeout: 30) {
            let rows = try red.world.list()
            return rows.count == 1 && rows.first?["senderKey"]?.string == IdentityTests.key(original)
        }
        let reason = try String(
            contentsOfFile: red.world.chest + "/rejected/\(id).locked.reason", encoding: .utf8)
        #expect(reason.contains("is not sealed by the hunt's organiser"), "\(reason)")
        // The ID the organiser gave out names its message, whatever chest ID it is filed under.
        let read = try red.world.chest(["read", id])
        #expect(read.status == 0 && read.stdout.contains("page of gift"), "\(read.stdout)\(read.stderr)")

        // Its receipt, and only its, reaches the board, which credits it.
        try red.world.waitUntil("the board credits red", timeout: 60) {
            hunt.boardEvents(board).contains { $0["event"]?.string == "unlock" && $0["team"]?.string == "red" }
        }
        let published = try hunt.received(receipts, count: 1)
        let envelope = try JSON(Data(published[0].utf8))
        let receipt = try #require(envelope["receipt"])
        #expect(receipt["message"]?.string == id)
        #expect(receipt["messageSignature"]?.string == Data(original.seal!.signature).base64EncodedString())

        // The copy again: refused.
        let again = try red.world.chest(["import", forged])
        #expect(
            again.status == 1 && again.stderr.contains("is not sealed by the hunt's organiser: a copy re-signed"),
            "\(again.stderr)")

        // The organiser's name stays its key's: said once, and its message is not flagged.
        let list = try red.world.chest(["list"])
        #expect(list.stderr.isEmpty && !list.stdout.contains("not the key you had before"), "\(list.stdout)")
        let known =
            try JSON(try red.world.chest(["senders", "list", "--json"]).stdout).array ?? []
        #expect(
            known.first { $0["name"]?.string == "Organiser" }?["key"]?.string == IdentityTests.key(original),
            "\(known)")
    }
}
