import Foundation
import Testing

@testable import ChestCore

/// The board: every team listed, pages credited only when proven and from a reader the team claimed, refusals
/// shown with their reason and bounded, a leaderboard ranked by points then by when the board heard of them (never
/// by what a team claims), and JSON lines in the shape `chest watch --json` uses.
@Suite struct HuntBoardTests {
    let hunt = HuntFixture.huntID
    func at(_ seconds: Double) -> Date { CoreFixture.t0.addingTimeInterval(seconds) }
    /// The reader key of `HuntFixture.receipt`.
    static let reader = HuntFixture.key(0x30)

    /// A status of `team` claiming `reader` (its claim's signature checked by the caller, ChestSeal's `ReaderClaim`).
    static func claim(_ board: inout HuntBoard, _ team: String, id: UInt64, reader: String = reader, at: Date)
        -> [BoardEvent]
    {
        var envelope = HuntFixture.statusEnvelope(team, id: id)
        envelope.status?.reader = reader
        envelope.status?.readerClaim = HuntFixture.key(0x50, count: 64)
        return board.record(envelope, receiptProblem: nil, claimedReader: reader, receivedAt: at)
    }

    @Test func everyTeamIsListedBeforeItIsHeard() {
        let board = HuntBoard(hunt: HuntFixture.hunt())
        #expect(board.teams.map(\.name) == ["red", "blue", "green"])
        #expect(board.teams.allSatisfy { $0.online == nil && $0.pages.isEmpty && $0.lastHeard == nil })
    }

    @Test func provenReceiptsFromAClaimedReaderAndStatusesUpdateTheirTeam() {
        var board = HuntBoard(hunt: HuntFixture.hunt())
        let status = board.record(
            HuntFixture.statusEnvelope("blue", id: 1, trust: .simulated), receiptProblem: nil,
            receivedAt: at(5))
        #expect(
            status == [
                .team(
                    name: "blue", online: true, lastHeard: at(5), trust: .simulated, pages: 0,
                    points: .init(points: 0, hints: 0, hintCost: 0, adjustments: 0))
            ])
        _ = Self.claim(&board, "blue", id: 2, at: at(6))
        let unlock = board.record(
            HuntFixture.receiptEnvelope("blue", id: 2, receipt: HuntFixture.receipt(openedAt: 8)),
            receiptProblem: nil, proof: .proven, receivedAt: at(10))
        #expect(
            unlock == [
                .unlock(
                    team: "blue", message: CoreFixture.id(1), title: "Clue 1", page: 1, openedAt: at(8),
                    trust: .hardware, receivedAt: at(10), proof: "proven"),
                .team(
                    name: "blue", online: true, lastHeard: at(10), trust: .hardware, pages: 1,
                    points: .init(points: 1, hints: 0, hintCost: 0, adjustments: 0)),
            ])
        let again = board.record(
            HuntFixture.receiptEnvelope("blue", id: 3, receipt: HuntFixture.receipt(openedAt: 9)),
            receiptProblem: nil, proof: .proven, receivedAt: at(11))
        #expect(
            again == [
                .team(
                    name: "blue", online: true, lastHeard: at(11), trust: .hardware, pages: 1,
                    points: .init(points: 1, hints: 0, hintCost: 0, adjustments: 0))
            ],
            "a second receipt for the same page does not count it twice")
        _ = board.record(
            HuntFixture.statusEnvelope("blue", id: 4, online: false, trust: nil), receiptProblem: nil,
            receivedAt: at(12))
        let blue = board.teams[1]
        #expect(
            blue.online == false && blue.trust == .hardware && blue.pages.count == 1 && blue.readers == [Self.reader])
        #expect(
            blue.pages[0]
                == HuntBoard.OpenedPage(
                    message: CoreFixture.id(1), title: "Clue 1", page: 1, openedAt: at(8),
                    trust: .hardware, receivedAt: at(10), proven: true,
                    positions: [CoreFixture.tower], points: 1),
            "the confirming fix's position is kept, for the map of a hunt that shares positions")
        #expect(blue.trail == [CoreFixture.tower])
        #expect(
            board.record(HuntFixture.releaseEnvelope("finale", id: 1), receiptProblem: nil, receivedAt: at(13)).isEmpty)
        #expect(
            board.record(HuntFixture.receiptEnvelope("purple", id: 1), receiptProblem: nil, receivedAt: at(13)).isEmpty)
    }

    /// The attacks of issue 24, one by one: each gains nothing, and is refused with its reason.
    @Test func receiptsThatProveNothingAreRefusedWithTheirReason() {
        var board = HuntBoard(hunt: HuntFixture.hunt())
        _ = Self.claim(&board, "red", id: 1, at: at(1))
        _ = Self.claim(&board, "blue", id: 1, reader: HuntFixture.key(0x31), at: at(1))
        func refusal(
            _ team: String, _ id: UInt64, _ receipt: UnlockReceipt = HuntFixture.receipt(),
            proof: HuntBoard.ProofCheck, problem: String? = nil
        ) -> String? {
            let events = board.record(
                HuntFixture.receiptEnvelope(team, id: id, receipt: receipt), receiptProblem: problem,
                proof: proof, receivedAt: at(Double(id)))
            guard case let .refused(reason, refusedTeam, _)? = events.first, refusedTeam == team else { return nil }
            return reason
        }
        #expect(refusal("red", 2, proof: .unknownMessage) == "unknownMessage")
        #expect(refusal("red", 3, proof: .noSuchPage(2)) == "unknownMessage")
        #expect(refusal("red", 4, proof: .missing) == "noProof")
        #expect(refusal("red", 5, proof: .bad) == "badProof")
        #expect(refusal("red", 6, proof: .proven, problem: "signature does not match") == "badReceipt")
        // A real proof, but signed by a reader key red never claimed (blue's, or a throwaway one).
        var throwaway = HuntFixture.receipt()
        throwaway.reader = HuntFixture.key(0x77)
        #expect(refusal("red", 7, throwaway, proof: .proven) == "wrongReader")
        var blues = HuntFixture.receipt(message: 2)
        blues.reader = HuntFixture.key(0x31)
        #expect(refusal("red", 8, blues, proof: .proven) == "wrongReader")
        #expect(board.teams[0].pages.isEmpty)
        // Red's genuine receipt counts; re-wrapped in blue's envelope it is refused as wrongTopic.
        #expect(refusal("red", 9, proof: .proven) == nil)
        #expect(refusal("blue", 2, proof: .proven) == "wrongTopic")
        #expect(board.teams[0].pages.count == 1 && board.teams[1].pages.isEmpty)
        #expect(
            board.teams[0].refusals == [
                "unknownMessage": 2, "noProof": 1, "badProof": 1, "badReceipt": 1, "wrongReader": 2,
            ])
        #expect(board.teams[1].refusals == ["wrongTopic": 1])
        // Blue cannot take red's reader key for itself, nor with it red's receipts.
        let stolen = Self.claim(&board, "blue", id: 3, at: at(20))
        #expect(stolen.first.map { if case .refused("wrongReader", "blue", _) = $0 { true } else { false } } == true)
        #expect(board.teams[1].readers == [HuntFixture.key(0x31)])
        // A receipt may carry its reader's claim itself (sent before any status): a new reader is learnt from it.
        var green = HuntFixture.receipt(message: 3)
        green.reader = HuntFixture.key(0x33)
        green.signature = HuntFixture.key(0x34, count: 64)
        let credited = board.record(
            HuntFixture.receiptEnvelope("green", id: 1, receipt: green), receiptProblem: nil,
            proof: .proven, claimedReader: green.reader, receivedAt: at(22))
        #expect(credited.first.map { if case .unlock = $0 { true } else { false } } == true, "\(credited)")
        // A claim whose signature did not check teaches the board nothing.
        var unchecked = HuntFixture.statusEnvelope("green", id: 5)
        unchecked.status?.reader = HuntFixture.key(0x32)
        _ = board.record(unchecked, receiptProblem: nil, claimedReader: nil, receivedAt: at(21))
        #expect(board.teams[2].readers == [HuntFixture.key(0x33)])
    }

    @Test func aGuardedPageCountsButIsShownUnproven() {
        var board = HuntBoard(hunt: HuntFixture.hunt())
        _ = Self.claim(&board, "red", id: 1, at: at(1))
        let events = board.record(
            HuntFixture.receiptEnvelope("red", id: 1), receiptProblem: nil, proof: .guarded, receivedAt: at(2))
        guard case let .unlock(_, _, _, _, _, _, _, proof, _)? = events.first else {
            Issue.record("not credited: \(events)")
            return
        }
        #expect(proof == "unproven: guarded page")
        #expect(board.teams[0].pages.map(\.proven) == [false])
    }

    @Test func failuresAreShownAndBounded() {
        var board = HuntBoard(hunt: HuntFixture.hunt())
        let bad = board.record(
            HuntFixture.receiptEnvelope("red", id: 1), receiptProblem: "signature does not match",
            receivedAt: at(1))
        #expect(bad.first == .refused(reason: "badReceipt", team: "red", why: "receipt 1: signature does not match"))
        #expect(board.teams[0].pages.isEmpty)
        let refused = board.recordRefusal(
            .wrongTopic, topic: HuntTopic.receipt(hunt: hunt, team: "green", id: 1), at: at(2))
        #expect(
            refused == [
                .refused(
                    reason: "wrongTopic", team: "green",
                    why: "the sender or kind does not match the topic on chest/\(hunt)/green/receipt/1")
            ])
        #expect(board.teams[2].failed.map(\.at) == [at(2)])
        let stranger = board.recordRefusal(.unknownKey, topic: "chest/\(hunt)/mallory/receipt/1", at: at(3))
        #expect(
            stranger.first
                == .refused(
                    reason: "unknownKey", team: nil,
                    why: "signed by a key this hunt does not know for its sender on chest/\(hunt)/mallory/receipt/1"))
        for second in 0..<(HuntBoard.failureLimit + 10) {
            _ = board.recordRefusal(
                .replayed, topic: HuntTopic.status(hunt: hunt, team: "red"), at: at(Double(100 + second)))
        }
        #expect(board.teams[0].failed.count == HuntBoard.failureLimit)
        #expect(board.teams[0].failed.last?.at == at(Double(100 + HuntBoard.failureLimit + 9)))
        #expect(board.teams[0].refusals["replayed"] == HuntBoard.failureLimit + 10, "every refusal is counted")
    }

    /// red: 2 pages, the second received at 42 though it claims to have opened at 30; blue: 2 pages, the second
    /// received at 43 though it claims 20 (earlier than red's); green: nothing.
    func race() -> HuntBoard {
        var board = HuntBoard(hunt: HuntFixture.hunt())
        for team in ["red", "blue"] {
            _ = Self.claim(&board, team, id: 1, reader: HuntFixture.key(team == "red" ? 0x30 : 0x31), at: at(0))
        }
        let receipts: [(String, UInt8, Double)] = [("red", 1, 10), ("blue", 1, 15), ("red", 2, 30), ("blue", 2, 20)]
        for (index, (team, message, opened)) in receipts.enumerated() {
            var receipt = HuntFixture.receipt(message: message, openedAt: opened)
            receipt.reader = HuntFixture.key(team == "red" ? 0x30 : 0x31)
            receipt.signature = HuntFixture.key(UInt8(0x60 + index), count: 64)
            _ = board.record(
                HuntFixture.receiptEnvelope(team, id: UInt64(index + 1), receipt: receipt),
                receiptProblem: nil, proof: .proven, receivedAt: at(40 + Double(index)))
        }
        _ = board.record(
            HuntFixture.statusEnvelope("green", id: 1, online: false, trust: .suspect), receiptProblem: nil,
            receivedAt: at(50))
        return board
    }

    @Test func theLeaderboardRanksByPointsThenWhenTheBoardHeardThenName() {
        #expect(
            race().leaderboard().map(\.name) == ["red", "blue", "green"], "blue's earlier claimed time does not count")
        var tie = HuntBoard(hunt: HuntFixture.hunt())
        for (index, team) in ["red", "green", "blue"].enumerated() {
            _ = Self.claim(&tie, team, id: 1, reader: HuntFixture.key(UInt8(0x30 + index)), at: at(0))
            var receipt = HuntFixture.receipt(openedAt: 5)
            receipt.reader = HuntFixture.key(UInt8(0x30 + index))
            receipt.signature = HuntFixture.key(UInt8(0x60 + index), count: 64)
            _ = tie.record(
                HuntFixture.receiptEnvelope(team, id: 1, receipt: receipt), receiptProblem: nil, proof: .proven,
                receivedAt: at(9))
        }
        #expect(tie.leaderboard().map(\.name) == ["blue", "green", "red"])
        #expect(HuntBoard(hunt: HuntFixture.hunt()).leaderboard().map(\.name) == ["blue", "green", "red"])
    }

    @Test func theLeaderboardText() {
        var board = race()
        _ = board.recordRefusal(.badSignature, topic: HuntTopic.receipt(hunt: hunt, team: "green", id: 1), at: at(60))
        #expect(
            board.leaderboardText() == """
                #  TEAM   POINTS  PAGES  GUARDED  HINTS  ADJUSTED  EARLY  REACHED               CLAIMED-OPENED        CLAIMED-TRUST  ONLINE  REFUSED
                1  red    2       2      0        0      0         0      2027-01-15T08:00:42Z  2027-01-15T08:00:30Z  hardware       yes     0
                2  blue   2       2      0        0      0         0      2027-01-15T08:00:43Z  2027-01-15T08:00:20Z  hardware       yes     0
                -  green  0       0      0        0      0         0      -                     -                     suspect        no      1×badSignature

                """)
    }

    @Test func theBoardSurvivesARestartThroughCodable() throws {
        let board = race()
        let restored = try ChestJSON.decoder().decode(HuntBoard.self, from: ChestJSON.encoder().encode(board))
        #expect(restored.teams == board.teams)
        #expect(restored.leaderboardText() == board.leaderboardText())
    }

    @Test func jsonLinesHaveTheirDocumentedFieldsAndReadBack() throws {
        let events: [BoardEvent] = [
            .team(name: "red", online: true, lastHeard: at(1), trust: .hardware, pages: 2),
            .unlock(
                team: "red", message: CoreFixture.id(1), title: "Clue\n1", page: 2, openedAt: at(0.25),
                trust: .simulated,
                receivedAt: at(2), proof: "proven"),
            .refused(reason: "replayed", team: nil, why: "already received"),
        ]
        #expect(
            events.map(\.line) == [
                #"{"event":"team","lastHeard":"2027-01-15T08:00:01Z","online":true,"pages":2,"team":"red","trust":"hardware"}"#,
                #"{"event":"unlock","message":"01ababababababababababababababab","openedAt":"2027-01-15T08:00:00.250Z","page":2,"#
                    + #""proof":"proven","receivedAt":"2027-01-15T08:00:02Z","team":"red","title":"Clue\n1","trust":"simulated"}"#,
                #"{"event":"refused","reason":"replayed","why":"already received"}"#,
            ])
        for event in events {
            #expect(try ChestJSON.decoder().decode(BoardEvent.self, from: Data(event.line.utf8)) == event)
        }
        #expect(throws: DecodingError.self) {
            try ChestJSON.decoder().decode(BoardEvent.self, from: Data(#"{"event":"unlock","team":"red"}"#.utf8))
        }
    }

    /// A place whose key came late: the receipt's evidence says when it was reached, and the board says both times
    /// (docs/DESIGN.md "Late keys").
    @Test func aReceiptSaysWhenThePlaceWasReachedAndTheBoardShowsIt() throws {
        var board = HuntBoard(hunt: HuntFixture.hunt())
        _ = Self.claim(&board, "blue", id: 1, at: at(1))
        var receipt = HuntFixture.receipt(openedAt: 40)
        receipt.evidence.reachedAt = at(12)
        let events = board.record(
            HuntFixture.receiptEnvelope("blue", id: 2, receipt: receipt), receiptProblem: nil,
            proof: .proven, receivedAt: at(41))
        let unlock = try #require(events.first)
        #expect(
            unlock
                == .unlock(
                    team: "blue", message: CoreFixture.id(1), title: "Clue 1", page: 1, openedAt: at(40),
                    trust: .hardware, receivedAt: at(41), proof: "proven", reachedAt: at(12)))
        #expect(unlock.line.contains(#""reachedAt":"2027-01-15T08:00:12Z""#), "\(unlock.line)")
        #expect(try ChestJSON.decoder().decode(BoardEvent.self, from: Data(unlock.line.utf8)) == unlock)
        #expect(board.teams.first { $0.name == "blue" }?.pages.first?.reachedAt == at(12))
        // The receipt's signed bytes carry it, so a team cannot move it without breaking the signature.
        #expect(String(decoding: receipt.signedBytes, as: UTF8.self).contains(#""reachedAt":"2027-01-15T08:00:12Z""#))
    }
}

/// Known senders, trust on first use (docs/SECURITY.md "Known senders").
@Suite struct KnownSendersModelTests {
    @Test func aNameMetFirstKeepsItsKeyAndAnotherKeyIsFlaggedUntilTrusted() throws {
        var known = KnownSenders()
        let t0 = CoreFixture.t0
        #expect(known.meet("Organiser", key: "A", at: t0) == .new)
        #expect(known.meet("Organiser", key: "A", at: t0.addingTimeInterval(5)) == .known)
        #expect(known.meet("Organiser", key: "B", at: t0) == .changed(previous: .init(key: "A", since: t0)))
        // Another name, but an invisible control is no difference: a lookalike (LookalikeSenderTests).
        #expect(
            known.verdict("Organiser\u{202E}", key: "B")
                == .lookalike(of: "Organiser", known: .init(key: "A", since: t0)))
        #expect(known.verdict("Organiser 2", key: "B") == .new)
        known.trust("Organiser", key: "B", at: t0.addingTimeInterval(9))
        #expect(known.verdict("Organiser", key: "B") == .known)
        #expect(known.forget("Organiser") && !known.forget("Organiser"))
        let restored = try ChestJSON.decoder().decode(KnownSenders.self, from: ChestJSON.encoder().encode(known))
        #expect(restored == known)
        #expect(KnownSenders.changedWords("Org\u{202E}") == "Org\\u{202e} \u{2014} not the key you had before")
    }
}

/// The board's "Walked" (docs/HUNTS.md "Distance walked"): what the team's statuses say its receiver covered, its
/// chestd's sessions added up (a restarted chestd counts again from 0), the farthest of its devices.
@Suite struct HuntBoardWalkedTests {
    func status(_ walked: Int?, session: UInt64, count: UInt64, device: String? = nil) -> HuntEnvelope {
        var envelope = HuntFixture.statusEnvelope("red", id: TeamStatus.id(session: session, count: count))
        envelope.status?.walked = walked
        envelope.status?.device = device
        return envelope
    }

    @Test func sessionsAddUpAndTheFarthestDeviceCounts() {
        var board = HuntBoard(hunt: HuntFixture.hunt())
        let at = CoreFixture.t0
        func walked() -> Int? { board.teams.first { $0.name == "red" }?.walked }
        _ = board.record(status(nil, session: 7, count: 1), receiptProblem: nil, receivedAt: at)
        #expect(walked() == nil)
        for (metres, count) in [(120, 2), (330, 3)] as [(Int, UInt64)] {
            _ = board.record(status(metres, session: 7, count: count), receiptProblem: nil, receivedAt: at)
        }
        #expect(walked() == 330)
        // Its chestd restarted: a new session counting from 0.
        _ = board.record(status(40, session: 9, count: 1), receiptProblem: nil, receivedAt: at)
        #expect(walked() == 370)
        // A second device of the team that walked less does not add to it; one that walked more is the team's.
        _ = board.record(status(200, session: 3, count: 1, device: "phone"), receiptProblem: nil, receivedAt: at)
        #expect(walked() == 370)
        _ = board.record(status(500, session: 3, count: 2, device: "phone"), receiptProblem: nil, receivedAt: at)
        #expect(walked() == 500)
    }
}
