import ChestCore
import ChestSeal
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// A team that floods topics below its own name that are no topic of chest's (issue 61, finding 3), over a real
/// Mosquitto broker, against `chest board --json --http`: one team's signed messages on `receipt/<not-an-id>` went
/// unrated, each one's signature checked before the gate refused it as `wrongTopic`, and one team's flood delayed
/// every other team's receipts by as long as those checks took. The rate now takes every topic below a team's name
/// (docs/HUNTS.md "A team that floods"): beyond its burst the flood is refused unread, every message counted, for
/// that team.
@Suite(.realProcesses, .tags(.process, .mosquitto), .serialized, .timeLimit(.minutes(5)))
struct BoardFloodTests {
    @Test func aFloodOnATeamsTopicsThatAreNoChestTopicIsRatedAndCountedUnread() throws {
        // The queue hunt.conf gives each client: Mosquitto drops QoS 0 messages for a client whose queue holds its
        // max_queued_messages (1000 by default), so with the default a board that reads the flood slower than it
        // comes (a loaded machine) loses what comes next, blue's receipt too (docs/HUNTS.md "A team that floods").
        let conf = try String(
            contentsOfFile: GPSLogs.packageRoot.appendingPathComponent("examples/mosquitto/hunt.conf").path,
            encoding: .utf8)
        let queue = try #require(conf.split(separator: "\n").first { $0.hasPrefix("max_queued_messages ") })
        let broker = try MosquittoBroker.start(extraConfiguration: String(queue))
        defer { broker.stop() }
        let world = try HuntWorld(teams: ["red", "blue"], broker: broker)
        _ = try world.compose("gold", ["--lock", "release=gold"])
        let file = try HuntFile.read(path: world.huntPath)
        let board = try WebBoard(world.organiserWorld, ["board", world.huntPath, "--http", "127.0.0.1:0", "--json"])
        defer { board.stop() }
        try world.organiserWorld.waitUntil("the board subscribed", timeout: 30) { try world.boardSubscriptions() == 1 }

        // Red's flood: one status signed with red's key, its signature good, sent 20,000 times on a receipt topic
        // whose last level is no id (hunt.acl's `receipt/+` lets it through), as fast as mosquitto_pub sends them.
        let red = try #require(file.team(named: TeamName("red")!))
        let flood = 20_000
        let signed = try #require(
            HuntSigner.sign(
                HuntEnvelope(
                    hunt: file.id, sender: "red", id: 1, sent: Date(), status: TeamStatus(online: true, pagesOpen: 0)),
                team: red))
        let lines = world.organiserWorld.root + "/flood.txt"
        var text = Data()
        for _ in 0..<flood { text.append(contentsOf: signed.bytes + [0x0a]) }
        try text.write(to: URL(fileURLWithPath: lines))
        let junkTopic = "chest/\(file.id)/red/receipt/not-an-id"
        let began = Date()
        let sent = try Subprocess.run(
            "/bin/sh",
            [
                "-c", "exec /usr/bin/mosquitto_pub -h \"$1\" -p \"$2\" -t \"$3\" -q 0 -l < \"$0\"", lines, broker.host,
                String(broker.port), junkTopic,
            ], environment: ProcessInfo.processInfo.environment)
        #expect(sent.status == 0, "\(sent)")

        // Blue, honest, after the flood: its status and a proven receipt, each on its own topic.
        let blue = try #require(file.team(named: TeamName("blue")!))
        let reader = try Identity.loadOrCreate(at: world.organiserWorld.root + "/blue-reader.json")
        let status = ReaderClaim.claim(
            TeamStatus(online: true, pagesOpen: 0, trust: .hardware), hunt: file.id, team: "blue", identity: reader)
        let blueStatus = try #require(
            HuntSigner.sign(
                HuntEnvelope(hunt: file.id, sender: "blue", id: 1, sent: Date(), status: status), team: blue))
        try world.publish(HuntTopic.status(hunt: file.id, team: "blue"), blueStatus.bytes, retain: true)
        let gold = try #require(world.ids["gold"].flatMap(MessageID.init))
        let pageKey = try #require((file.messages?[gold]?.pages[0].key).flatMap { Data(base64Encoded: $0) })
        let receipt = UnlockReceipt(
            message: gold, messageSignature: Data(Sealer.randomBytes(64)).base64EncodedString(), title: "gold",
            page: 1, set: .a, openedAt: Date(),
            evidence: UnlockEvidence(
                locks: [.location], fixes: [], source: nil, trust: FixTrust(level: .hardware), gpsTime: nil,
                systemTime: Date(), clock: "system"),
            reader: "")
        let proven = ReceiptProof.signed(
            receipt, proofKey: Data(ReceiptProof.key(pageKey: [UInt8](pageKey))).base64EncodedString(),
            identity: reader)
        let blueReceipt = try #require(
            HuntSigner.sign(
                HuntEnvelope(
                    hunt: file.id, sender: "blue", id: 2, sent: Date(), receipt: proven,
                    readerClaim: ReaderClaim.claim(hunt: file.id, team: "blue", identity: reader)),
                team: blue))
        try world.publish(HuntTopic.receipt(hunt: file.id, team: "blue", id: 2), blueReceipt.bytes, retain: true)
        try world.organiserWorld.waitUntil("the board credits blue's receipt", timeout: 120) {
            board.events.contains { $0["event"]?.string == "unlock" && $0["team"]?.string == "blue" }
        }

        // Every one of the flood's messages counted, and most of them unread.
        func document() throws -> JSON {
            let json = try WebClient.request(port: board.port, path: "/board.json")
            return try JSON(json.body)
        }
        var ignored: [String: Int] = [:]
        try world.organiserWorld.waitUntil("the board counted the whole flood", timeout: 120) {
            ignored = try document()["ignored"]?.object?.compactMapValues(\.int) ?? [:]
            return ignored.values.reduce(0, +) >= flood
        }
        // The flood took at most this long to reach the board. Not the moment blue's receipt was credited: that
        // mosquitto_pub has exited means its bytes are in the broker's socket, not that the broker has read them, and
        // a loaded broker can pass blue's on before the rest of red's.
        let span = Date().timeIntervalSince(began)
        let checked = ignored["wrongTopic", default: 0]
        let unread = ignored["tooFast", default: 0]
        #expect(checked + unread == flood && ignored.count <= 2, "\(ignored)")
        // Red's burst and one a second were checked and refused as not its topic; the rest refused unread.
        #expect(
            checked >= Int(TeamRate.burst) && checked <= Int(TeamRate.burst) + Int(span.rounded(.up)) + 1,
            "\(checked) of \(flood) checked over \(span) s: \(ignored)")
        // Counted for red, whose name the topics are below.
        let rows = try #require(try document()["teams"]?.array)
        let redRow = try #require(rows.first { $0["team"]?.string == "red" })
        #expect(redRow["refused"] == ["wrongTopic": .integer(checked), "tooFast": .integer(unread)], "\(redRow)")
        // And shown once, not once a message.
        let shown = board.events.filter { $0["event"]?.string == "refused" && $0["reason"]?.string == "tooFast" }
        #expect(shown.count == 1 && shown.first?["team"]?.string == "red", "\(shown)")
    }
}
