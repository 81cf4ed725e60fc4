import ChestCore
import ChestIO
import ChestSeal
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// Points, hints and adjustments on the board (docs/HUNTS.md "Points", "Hints", "Adjustments"), over a real Mosquitto
/// broker: two teams publish what a team's chestd publishes (signed statuses with their reader's claim, receipts
/// with real proofs of opening, a signed hint request), the organiser adjusts with `chest hunt adjust`, and the
/// terminal board's JSON lines, `--once` and the web board's `/board.json` rank them by points.
@Suite(.realProcesses, .tags(.process, .mosquitto), .serialized, .timeLimit(.minutes(5)))
struct BoardScoreTests {
    /// A team as the test plays it: its key from the organiser's file, its reader's identity, its outbox counter.
    final class Player {
        let team: HuntTeam
        let reader: Identity
        let hunt: HuntID
        var nextID: UInt64 = 0

        init(_ team: HuntTeam, hunt: HuntID, reader: Identity) {
            self.team = team
            self.hunt = hunt
            self.reader = reader
        }

        func envelope(_ make: (UInt64) -> HuntEnvelope) throws -> (id: UInt64, bytes: Data) {
            nextID += 1
            let signed = try #require(HuntSigner.sign(make(nextID), team: team))
            return (nextID, signed.bytes)
        }
    }

    @Test func twoTeamsRankedByPointsWithAHintAndAnAdjustmentOnTheTerminalAndTheWebBoard() throws {
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        let world = try HuntWorld(teams: ["red", "blue"], broker: broker)
        // Two sealed pages (a release is their only secret, so a receipt proves the page key was recovered): gold is
        // worth 5 and has a hint costing 2; silver is worth the default 1.
        _ = try world.compose("gold", ["--lock", "release=gold"])
        _ = try world.compose("silver", ["--lock", "release=silver"])
        var file = try HuntFile.read(path: world.huntPath)
        let gold = try #require(world.ids["gold"].flatMap(MessageID.init))
        let silver = try #require(world.ids["silver"].flatMap(MessageID.init))
        let hintKey = Data(Sealer.randomBytes(32))
        file.messages?[gold]?.pages[0].points = 5
        file.messages?[gold]?.pages[0].hints = [HuntMessage.Hint(key: hintKey.base64EncodedString(), cost: 2)]
        try file.write(to: world.huntPath)

        let board = try WebBoard(world.organiserWorld, ["board", world.huntPath, "--http", "127.0.0.1:0", "--json"])
        defer { board.stop() }
        let answers = try world.subscribe("chest/\(file.id)/organiser/hint/red/+", count: 2)
        defer {
            answers.process.terminate()
        }

        func player(_ name: String) throws -> Player {
            Player(
                try #require(file.team(named: TeamName(name)!)), hunt: file.id,
                reader: try Identity.loadOrCreate(at: world.organiserWorld.root + "/\(name)-reader.json"))
        }
        let (red, blue) = (try player("red"), try player("blue"))
        for team in [red, blue] {
            let status = ReaderClaim.claim(
                TeamStatus(online: true, pagesOpen: 0, trust: .hardware), hunt: file.id,
                team: team.team.name.rawValue, identity: team.reader)
            let sent = try team.envelope {
                HuntEnvelope(
                    hunt: file.id, sender: team.team.name.rawValue, id: $0 << 32 | 1, sent: Date(), status: status)
            }
            try world.publish(HuntTopic.status(hunt: file.id, team: team.team.name.rawValue), sent.bytes, retain: true)
        }
        func open(_ message: MessageID, title: String, by team: Player) throws {
            let pageKey = try #require((file.messages?[message]?.pages[0].key).flatMap { Data(base64Encoded: $0) })
            let proofKey = Data(ReceiptProof.key(pageKey: [UInt8](pageKey))).base64EncodedString()
            let receipt = UnlockReceipt(
                message: message, messageSignature: Data(Sealer.randomBytes(64)).base64EncodedString(), title: title,
                page: 1, set: .a, openedAt: Date(),
                evidence: UnlockEvidence(
                    locks: [.location], fixes: [], source: nil, trust: FixTrust(level: .hardware),
                    gpsTime: nil, systemTime: Date(), clock: "system"),
                reader: "")
            let claim = ReaderClaim.claim(hunt: file.id, team: team.team.name.rawValue, identity: team.reader)
            let sent = try team.envelope {
                HuntEnvelope(
                    hunt: file.id, sender: team.team.name.rawValue, id: $0, sent: Date(),
                    receipt: ReceiptProof.signed(receipt, proofKey: proofKey, identity: team.reader), readerClaim: claim
                )
            }
            try world.publish(
                HuntTopic.receipt(hunt: file.id, team: team.team.name.rawValue, id: sent.id), sent.bytes, retain: true)
        }
        try open(gold, title: "gold", by: red)
        try open(silver, title: "silver", by: blue)
        func team(_ name: String) -> JSON? {
            board.events.last { $0["event"]?.string == "team" && $0["team"]?.string == name }
        }
        try world.organiserWorld.waitUntil("the board credits red 5 points and blue 1", timeout: 30) {
            team("red")?["points"]?.int == 5 && team("blue")?["points"]?.int == 1
        }

        // Red asks for gold's hint as its chestd would: a signed hintRequest on its own topic, retained.
        func askHint() throws {
            let asked = try red.envelope {
                HuntEnvelope(
                    hunt: file.id, sender: "red", id: $0, sent: Date(),
                    hintRequest: HuntHintRequest(message: gold, page: 1, hint: 1))
            }
            try world.publish(
                HuntTopic.hintRequest(hunt: file.id, team: "red", id: asked.id), asked.bytes, retain: true)
        }
        try askHint()
        let first = try #require(try world.received(answers, count: 1).first)
        let answer = try HuntEnvelope.decode(Data(first.utf8))
        #expect(answer.kind == .hint && answer.sender == HuntEnvelope.organiserSender && answer.key == file.organiser)
        #expect(HuntSigner.isValid(answer), "signed by the organiser")
        guard case let .hint(hint) = answer.body else {
            Issue.record("not a hint: \(answer.kind)")
            return
        }
        #expect(
            hint.team == "red" && hint.message == gold.rawValue && hint.page == 1 && hint.hint == 1 && hint.cost == 2)
        let sealed = try #require(Data(base64Encoded: hint.sealed))
        // Sealed to red's team key, which every device of red has (docs/HUNTS.md "Several devices in one team").
        func teamKey(_ player: Player) throws -> [UInt8] {
            [UInt8](try #require(player.team.secretKey.flatMap { Data(base64Encoded: $0) }))
        }
        #expect(
            HintSeal.open(sealed, withSecretKey: try teamKey(red)) == hintKey, "red's team key opens the hint's key")
        #expect(HintSeal.open(sealed, withSecretKey: try teamKey(blue)) == nil, "no other team's does")
        #expect(HintSeal.open(sealed, with: red.reader) == nil, "nor a reader's own key")
        try world.organiserWorld.waitUntil("the board subtracts the hint's cost", timeout: 20) {
            team("red")?["points"]?.int == 3 && team("red")?["hints"]?.int == 1
                && team("red")?["hintCost"]?.int == 2
        }
        // Asked again: answered again, never charged twice.
        try askHint()
        #expect(try world.received(answers, count: 2).count == 2)
        try world.organiserWorld.waitUntil("the second answer's event", timeout: 20) {
            board.events.contains { $0["event"]?.string == "hint" && $0["charged"]?.bool == false }
        }
        #expect(team("red")?["points"]?.int == 3)

        // The organiser gives blue 4 points: blue, 5, now leads red, 3.
        let adjusted = try world.organiser([
            "hunt", "adjust", "blue", "+4", "helped", "a", "lost", "walker", "--hunt", world.huntPath,
        ])
        #expect(adjusted.status == 0 && adjusted.stdout.contains("blue +4 points"), "\(adjusted)")
        try world.organiserWorld.waitUntil("the board adds blue's adjustment", timeout: 20) {
            team("blue")?["points"]?.int == 5 && team("blue")?["adjustments"]?.int == 4
        }
        #expect(
            board.events.contains {
                $0["event"]?.string == "adjusted" && $0["reason"]?.string == "helped a lost walker"
            })
        let wrong = try world.organiser(["hunt", "adjust", "purple", "+4", "x", "--hunt", world.huntPath])
        #expect(wrong.status != 0 && wrong.stderr.contains("has no team purple (it has blue, red)"), "\(wrong)")
        let zero = try world.organiser(["hunt", "adjust", "blue", "5", "x", "--hunt", world.huntPath])
        #expect(zero.status == 64 && zero.stderr.contains("POINTS is +N or -N"), "\(zero)")

        // The web board: points first, the hint and the adjustment with its reason.
        let json = try WebClient.request(port: board.port, path: "/board.json")
        let document = try JSON(json.body)
        let rows = try #require(document["teams"]?.array)
        #expect(rows.map { $0["team"]?.string } == ["blue", "red"], "\(rows)")
        #expect(rows.map { $0["points"]?.int } == [5, 3] && rows.map { $0["rank"]?.int } == [1, 2])
        #expect(
            rows[0]["adjustments"]?.int == 4
                && (rows[0]["adjusted"]?.array)?.first?["reason"]?.string == "helped a lost walker")
        #expect(rows[1]["hints"]?.int == 1 && rows[1]["hintCost"]?.int == 2 && rows[1]["pages"]?.int == 1)
        let page = try WebClient.request(port: board.port, path: "/")
        #expect(
            page.body.contains(#"<th class="score c-score">Points</th>"#) && page.body.contains("helped a lost walker"),
            "\(page.body)")

        // The terminal's leaderboard, from another board reading the broker and its own journal.
        let once = try world.organiser(["board", world.huntPath, "--once", "--timeout", "3"])
        let table = once.stdout.split(separator: "\n").map {
            $0.split(separator: " ", omittingEmptySubsequences: true).prefix(7).map(String.init)
        }
        #expect(table.first == ["#", "TEAM", "POINTS", "PAGES", "GUARDED", "HINTS", "ADJUSTED"], "\(once.stdout)")
        #expect(
            Array(table.dropFirst().prefix(2)) == [
                ["1", "blue", "5", "1", "0", "0", "+4"], ["2", "red", "3", "1", "0", "-2", "0"],
            ],
            "\(once.stdout)")
    }
}
