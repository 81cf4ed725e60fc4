import ChestCore
import ChestIO
import ChestSeal
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// The board believes only what is proven (docs/HUNTS.md "What the board credits"), over a real Mosquitto broker:
/// a team publishing, with its own real team key, receipts for a page it never opened, for a message not in the
/// hunt, from a reader key it never claimed, or another team's receipt re-wrapped, gains nothing, and each is shown
/// refused with its reason; genuine openings count, across board restarts, ranked by when the board heard them.
@Suite(.realProcesses, .tags(.process, .mosquitto), .serialized, .timeLimit(.minutes(5)))
struct HuntProofTests {
    @Test func aTeamGainsNothingFromReceiptsItCannotProveAndGenuineOnesCountAcrossRestarts() throws {
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        let hunt = try HuntWorld(teams: ["red", "blue"], broker: broker)
        let red = hunt.teams[0]
        let board = try hunt.startBoard()
        defer { hunt.stopBoard(board) }
        let file = try HuntFile.read(path: hunt.huntPath)
        let redReceipts = try hunt.subscribe("chest/\(file.id)/red/receipt/+", count: 1)
        defer {
            redReceipts.process.terminate()
        }

        // Red opens a guarded page for real; a sealed page (its key is released to nobody) is never opened.
        let gift = try hunt.compose("gift", ["--lock", "time=2020-01-01T00:00:00Z"])
        _ = try hunt.compose("vault", ["--lock", "release=vault"])
        try hunt.give(gift, to: red)
        try red.world.startDaemon()
        try red.world.waitUntil("the board credits red's opening", timeout: 40) {
            hunt.boardEvents(board).contains { $0["event"]?.string == "unlock" && $0["team"]?.string == "red" }
        }
        let credited = try #require(hunt.boardEvents(board).first { $0["event"]?.string == "unlock" })
        #expect(credited["proof"]?.string == "unproven: guarded page", "\(credited)")

        // Blue plays the hostile team with its real join file: its team key signs every envelope, and its reader's
        // claim to play for blue is valid, so only what the receipts prove is in question.
        let organiserFile = try HuntFile.read(path: hunt.huntPath)
        let blueTeam = try #require(organiserFile.team(named: TeamName("blue")!))
        let blueReader = try Identity.loadOrCreate(at: hunt.organiserWorld.root + "/blue-reader.json")
        let throwaway = try Identity.loadOrCreate(at: hunt.organiserWorld.root + "/throwaway.json")
        let giftID = try #require(hunt.ids["gift"].flatMap(MessageID.init))
        let vaultID = try #require(hunt.ids["vault"].flatMap(MessageID.init))
        var nextID: UInt64 = 0
        func publish(_ receipt: UnlockReceipt, claimedBy reader: Identity? = nil) throws {
            nextID += 1
            let claim = ReaderClaim.claim(hunt: file.id, team: "blue", identity: reader ?? blueReader)
            let envelope = try #require(
                HuntSigner.sign(
                    HuntEnvelope(
                        hunt: file.id, sender: "blue", id: nextID, sent: Date(),
                        receipt: receipt, readerClaim: claim), team: blueTeam))
            try hunt.publish(HuntTopic.receipt(hunt: file.id, team: "blue", id: nextID), envelope.bytes)
        }
        func made(_ id: MessageID, title: String, openedAt: Date = Date()) -> UnlockReceipt {
            UnlockReceipt(
                message: id, messageSignature: HuntProofTests.randomBase64(64), title: title, page: 1, set: .a,
                openedAt: openedAt,
                evidence: UnlockEvidence(
                    locks: [.location], fixes: [], source: nil, trust: FixTrust(level: .hardware),
                    gpsTime: nil, systemTime: openedAt, clock: "gps"),
                reader: "")
        }
        // A real page blue never opened: no proof, then a made-up one.
        try publish(ReceiptProof.signed(made(vaultID, title: "vault"), proofKey: nil, identity: blueReader))
        var madeUp = made(vaultID, title: "vault")
        madeUp.proof = Self.randomBase64(32)
        try publish(ReceiptSigner.sign(madeUp, with: blueReader))
        // A message that is not the hunt's, claiming hardware trust.
        try publish(
            ReceiptProof.signed(
                made(MessageID(bytes: Sealer.randomBytes(16)), title: "made up"),
                proofKey: Self.randomBase64(32), identity: blueReader))
        // A real proof (the gift is guarded, so its key is in the file blue could get) from a reader key blue never
        // claimed.
        let giftKeyText = (organiserFile.messages?[giftID]?.pages[0].key).flatMap { Data(base64Encoded: $0) }
        let giftKey = try #require(giftKeyText)
        let giftProofKey = Data(ReceiptProof.key(pageKey: [UInt8](giftKey))).base64EncodedString()
        nextID += 1
        let unclaimed = try #require(
            HuntSigner.sign(
                HuntEnvelope(
                    hunt: file.id, sender: "blue", id: nextID, sent: Date(),
                    receipt: ReceiptProof.signed(
                        made(giftID, title: "gift"),
                        proofKey: giftProofKey,
                        identity: throwaway)),
                team: blueTeam))
        try hunt.publish(HuntTopic.receipt(hunt: file.id, team: "blue", id: nextID), unclaimed.bytes)
        // Red's own receipt, as the broker carried it, re-wrapped in blue's envelope.
        let redPayload = try #require(try hunt.received(redReceipts, count: 1).first)
        let redEnvelope = try HuntEnvelope.decode(Data(redPayload.utf8))
        guard case let .receipt(redReceipt, _) = redEnvelope.body else {
            Issue.record("not a receipt: \(redEnvelope.kind)")
            return
        }
        nextID += 1
        let rewrapped = try #require(
            HuntSigner.sign(
                HuntEnvelope(
                    hunt: file.id, sender: "blue", id: nextID, sent: Date(),
                    receipt: redReceipt), team: blueTeam))
        try hunt.publish(HuntTopic.receipt(hunt: file.id, team: "blue", id: nextID), rewrapped.bytes)

        let reasons = ["noProof", "badProof", "unknownMessage", "wrongReader", "wrongTopic"]
        try red.world.waitUntil("the board refuses each of blue's receipts", timeout: 30) {
            let refused = hunt.boardEvents(board).filter {
                $0["event"]?.string == "refused" && $0["team"]?.string == "blue"
            }
            return Set(refused.compactMap { $0["reason"]?.string }) == Set(reasons)
        }
        #expect(
            !hunt.boardEvents(board).contains { $0["event"]?.string == "unlock" && $0["team"]?.string == "blue" })

        // A guarded page blue can prove (it holds the file) counts, shown unproven; claiming to have opened it
        // before red did does not put blue first: the board ranks by when it heard. The title blue signs is its own
        // invention: the board shows the organiser's.
        try publish(
            ReceiptProof.signed(
                made(
                    giftID, title: "BLUE WINS \u{202E}sniw eulb", openedAt: Date(timeIntervalSince1970: 1_577_836_800)),
                proofKey: giftProofKey, identity: blueReader))
        try red.world.waitUntil("blue's provable receipt is credited", timeout: 30) {
            hunt.boardEvents(board).contains { $0["event"]?.string == "unlock" && $0["team"]?.string == "blue" }
        }
        let blueCredit = hunt.boardEvents(board).first {
            $0["event"]?.string == "unlock" && $0["team"]?.string == "blue"
        }
        #expect(
            blueCredit?["title"]?.string == "gift", "the organiser's title, not the team's: \(blueCredit ?? [:])")
        func leaderboard() throws -> [[Substring]] {
            let once = try hunt.organiser(["board", hunt.huntPath, "--once", "--timeout", "3"])
            #expect(once.status == 0, "\(once.stderr)")
            return once.stdout.split(separator: "\n").dropFirst().prefix(2).map {
                $0.split(separator: " ", omittingEmptySubsequences: true)
            }
        }
        var rows = try leaderboard()
        // POINTS 0 (a guarded page is credited without points), PAGES 1, GUARDED 1.
        #expect(
            rows.map { String($0[1]) } == ["red", "blue"]
                && rows.allSatisfy { $0[2] == "0" && $0[3] == "1" && $0[4] == "1" }, "\(rows)")
        #expect(rows.last.map { $0.contains { $0.contains("wrongTopic") } } == true, "\(rows)")
        // The results, as the organiser prints them at the end: the same ranking, the organiser's titles.
        let csvPath = hunt.organiserWorld.root + "/results.csv"
        let results = try hunt.organiser(["board", hunt.huntPath, "--results", "--timeout", "3", "-o", csvPath])
        #expect(
            results.status == 0 && results.stderr.contains("wrote the results of 2 teams to \(csvPath)"),
            "\(results.stderr)")
        let csv = try String(contentsOfFile: csvPath, encoding: .utf8).split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        #expect(csv.first?.prefix(4) == ["rank", "team", "points", "pages"])
        #expect(
            csv.dropFirst().map { Array($0.prefix(4)) } == [["1", "red", "0", "1"], ["2", "blue", "0", "1"]], "\(csv)")
        #expect(csv.last?.last?.hasPrefix("gift p1 at ") == true, "\(csv)")
        let printed = try hunt.organiser(["board", hunt.huntPath, "--results", "--timeout", "3"])
        #expect(
            printed.stdout.contains("1. red: 1 page") && printed.stdout.contains("no tracks and no distances"),
            "\(printed.stdout)")

        // After a restart the board replays its journal: the same credits, the same refusals, the same order.
        hunt.stopBoard(board)
        let again = try hunt.startBoard()
        defer { hunt.stopBoard(again) }
        try red.world.waitUntil("the restarted board shows both credits", timeout: 20) {
            hunt.boardEvents(again).count { $0["event"]?.string == "unlock" } == 2
        }
        #expect(
            Set(
                hunt.boardEvents(again).filter { $0["event"]?.string == "refused" }.compactMap {
                    $0["reason"]?.string
                })
                == Set(reasons))
        rows = try leaderboard()
        #expect(rows.map { String($0[1]) } == ["red", "blue"], "\(rows)")
        // `chest verify` on a made-up receipt for the vault (the real message, a made-up proof): not proven, with or
        // without the hunt file; red's real receipt of the guarded gift is said to prove only that the file was held.
        let vaultPath = hunt.organiserWorld.root + "/vault.locked"
        let vault = try MessageFile.decode(Data(contentsOf: URL(fileURLWithPath: vaultPath)))
        var fake = made(vaultID, title: "vault")
        fake.messageSignature = Data(try #require(vault.seal).signature).base64EncodedString()
        fake.proof = Self.randomBase64(32)
        let fakePath = hunt.organiserWorld.root + "/fake.json"
        try ReceiptSigner.sign(fake, with: blueReader).fileBytes.write(to: URL(fileURLWithPath: fakePath))
        let unchecked = try hunt.organiser(["verify", fakePath, vaultPath])
        #expect(
            unchecked.status == 0 && unchecked.stdout.contains("(not known to you); the opening is not proven"),
            "\(unchecked)")
        #expect(unchecked.stdout.contains("hardware") && unchecked.stdout.contains("(claimed)"), "\(unchecked.stdout)")
        let checked = try hunt.organiser(["verify", fakePath, vaultPath, "--hunt", hunt.huntPath])
        #expect(
            checked.status != 0
                && checked.stderr.contains("not proven: the proof of opening was not made with the page's key"),
            "\(checked)")
        let redPath = hunt.organiserWorld.root + "/red.json"
        try redReceipt.fileBytes.write(to: URL(fileURLWithPath: redPath))
        let genuine = try hunt.organiser(["verify", redPath, gift, "--hunt", hunt.huntPath])
        #expect(genuine.status == 0 && genuine.stdout.contains("unproven: guarded page"), "\(genuine)")

        // The journal keeps no page text, and the join files no page keys.
        #expect(!(try String(contentsOfFile: red.world.root + "/join.hunt", encoding: .utf8)).contains("messages"))
    }

    @Test func junkIsJournaledAsItsRefusalOnlyAndStillShownAfterARestart() throws {
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        let hunt = try HuntWorld(teams: ["red"], broker: broker)
        let board = try hunt.startBoard()
        defer { hunt.stopBoard(board) }
        let file = try HuntFile.read(path: hunt.huntPath)
        // Three junk messages of 2 MB each on red's topic: before, each went into the journal in full. Retained, so
        // the board has them however soon after its start they come.
        for index in 1...3 {
            try hunt.publish(
                HuntTopic.receipt(hunt: file.id, team: "red", id: UInt64(index)), Data(repeating: 0x7b, count: 2 << 20),
                retain: true)
        }
        try hunt.organiserWorld.waitUntil("the board refuses the three", timeout: 30) {
            hunt.boardEvents(board).count { $0["reason"]?.string == "malformed" } == 3
        }
        let size = (try FileManager.default.attributesOfItem(atPath: hunt.huntPath + ".board")[.size] as? Int) ?? 0
        #expect(size < 2_000, "the journal is \(size) bytes")
        hunt.stopBoard(board)
        let again = try hunt.startBoard()
        defer { hunt.stopBoard(again) }
        // Replayed from the journal (and heard again from the broker, which keeps them).
        try hunt.organiserWorld.waitUntil("the restarted board shows them again", timeout: 20) {
            hunt.boardEvents(again).count { $0["reason"]?.string == "malformed" && $0["team"]?.string == "red" }
                >= 3
        }
        let after = (try FileManager.default.attributesOfItem(atPath: hunt.huntPath + ".board")[.size] as? Int) ?? 0
        #expect(after < 4_000, "the journal is \(after) bytes")
    }

    static func randomBase64(_ count: Int) -> String { Data(Sealer.randomBytes(count)).base64EncodedString() }
}
