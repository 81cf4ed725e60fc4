import Foundation
import Testing
@testable import ChestCore

/// The board: every team listed, pages in arrival order, failures kept and bounded, a leaderboard ranked by pages
/// then by who got there first, and JSON lines in the shape `chest watch --json` uses.
@Suite struct HuntBoardTests {
    let hunt = HuntFixture.huntID
    func at(_ seconds: Double) -> Date { CoreFixture.t0.addingTimeInterval(seconds) }

    @Test func everyTeamIsListedBeforeItIsHeard() {
        let board = HuntBoard(hunt: HuntFixture.hunt())
        #expect(board.teams.map(\.name) == ["red", "blue", "green"])
        #expect(board.teams.allSatisfy { $0.online == nil && $0.pages.isEmpty && $0.lastHeard == nil })
    }

    @Test func receiptsAndStatusesUpdateTheirTeam() {
        var board = HuntBoard(hunt: HuntFixture.hunt())
        let status = board.record(HuntFixture.statusEnvelope("blue", id: 1, trust: .simulated), receiptProblem: nil,
                                  receivedAt: at(5))
        #expect(status == [.team(name: "blue", online: true, lastHeard: at(5), trust: .simulated, pages: 0)])
        let unlock = board.record(HuntFixture.receiptEnvelope("blue", id: 2, receipt: HuntFixture.receipt(openedAt: 8)),
                                  receiptProblem: nil, receivedAt: at(10))
        #expect(unlock == [.unlock(team: "blue", message: CoreFixture.id(1), title: "Clue 1", page: 1, openedAt: at(8),
                                   trust: .hardware),
                           .team(name: "blue", online: true, lastHeard: at(10), trust: .hardware, pages: 1)])
        let again = board.record(HuntFixture.receiptEnvelope("blue", id: 3, receipt: HuntFixture.receipt(openedAt: 9)),
                                 receiptProblem: nil, receivedAt: at(11))
        #expect(again == [.team(name: "blue", online: true, lastHeard: at(11), trust: .hardware, pages: 1)],
                "a second receipt for the same page does not count it twice")
        _ = board.record(HuntFixture.statusEnvelope("blue", id: 4, online: false, trust: nil), receiptProblem: nil,
                         receivedAt: at(12))
        let blue = board.teams[1]
        #expect(blue.online == false && blue.trust == .hardware && blue.pages.count == 1)
        #expect(blue.pages[0] == HuntBoard.OpenedPage(message: CoreFixture.id(1), title: "Clue 1", page: 1, openedAt: at(8),
                                                      trust: .hardware, receivedAt: at(10)))
        #expect(board.record(HuntFixture.releaseEnvelope("finale", id: 1), receiptProblem: nil, receivedAt: at(13)).isEmpty)
        #expect(board.record(HuntFixture.receiptEnvelope("purple", id: 1), receiptProblem: nil, receivedAt: at(13)).isEmpty)
    }

    @Test func failuresAreShownAndBounded() {
        var board = HuntBoard(hunt: HuntFixture.hunt())
        let bad = board.record(HuntFixture.receiptEnvelope("red", id: 1), receiptProblem: "signature does not match",
                               receivedAt: at(1))
        #expect(bad.first == .refused(reason: "badReceipt", team: "red", why: "receipt 1: signature does not match"))
        #expect(board.teams[0].pages.isEmpty)
        let refused = board.recordRefusal(.wrongTopic, topic: HuntTopic.receipt(hunt: hunt, team: "green", id: 1), at: at(2))
        #expect(refused == [.refused(reason: "wrongTopic", team: "green",
                                     why: "the sender or kind does not match the topic on chest/\(hunt)/green/receipt/1")])
        #expect(board.teams[2].failed.map(\.at) == [at(2)])
        let stranger = board.recordRefusal(.unknownKey, topic: "chest/\(hunt)/mallory/receipt/1", at: at(3))
        #expect(stranger.first == .refused(reason: "unknownKey", team: nil,
                                           why: "signed by a key this hunt does not know for its sender on chest/\(hunt)/mallory/receipt/1"))
        for second in 0..<(HuntBoard.failureLimit + 10) {
            _ = board.recordRefusal(.replayed, topic: HuntTopic.status(hunt: hunt, team: "red"), at: at(Double(100 + second)))
        }
        #expect(board.teams[0].failed.count == HuntBoard.failureLimit)
        #expect(board.teams[0].failed.last?.at == at(Double(100 + HuntBoard.failureLimit + 9)))
    }

    /// red: 2 pages, the second opened at 30; blue: 2 pages, reached at 20; green: nothing.
    func race() -> HuntBoard {
        var board = HuntBoard(hunt: HuntFixture.hunt())
        let receipts: [(String, UInt8, Double)] = [("red", 1, 10), ("blue", 1, 15), ("red", 2, 30), ("blue", 2, 20)]
        for (index, (team, message, opened)) in receipts.enumerated() {
            _ = board.record(HuntFixture.receiptEnvelope(team, id: UInt64(index + 1),
                                                         receipt: HuntFixture.receipt(message: message, openedAt: opened)),
                             receiptProblem: nil, receivedAt: at(40 + Double(index)))
        }
        _ = board.record(HuntFixture.statusEnvelope("green", id: 1, online: false, trust: .suspect), receiptProblem: nil,
                         receivedAt: at(50))
        return board
    }

    @Test func theLeaderboardRanksByPagesThenWhoGotThereFirstThenName() {
        #expect(race().leaderboard().map(\.name) == ["blue", "red", "green"])
        var tie = HuntBoard(hunt: HuntFixture.hunt())
        for team in ["red", "green", "blue"] {
            _ = tie.record(HuntFixture.receiptEnvelope(team, id: 1, receipt: HuntFixture.receipt(openedAt: 5)),
                           receiptProblem: nil, receivedAt: at(9))
        }
        #expect(tie.leaderboard().map(\.name) == ["blue", "green", "red"])
        #expect(HuntBoard(hunt: HuntFixture.hunt()).leaderboard().map(\.name) == ["blue", "green", "red"])
    }

    @Test func theLeaderboardText() {
        var board = race()
        _ = board.recordRefusal(.badSignature, topic: HuntTopic.receipt(hunt: hunt, team: "green", id: 1), at: at(60))
        #expect(board.leaderboardText() == """
            #  TEAM   PAGES  REACHED               TRUST     ONLINE  FAILED
            1  blue   2      2027-01-15T08:00:20Z  hardware  -       0
            2  red    2      2027-01-15T08:00:30Z  hardware  -       0
            3  green  0      -                     suspect   no      1

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
            .unlock(team: "red", message: CoreFixture.id(1), title: "Clue\n1", page: 2, openedAt: at(0.25), trust: .simulated),
            .refused(reason: "replayed", team: nil, why: "already received"),
        ]
        #expect(events.map(\.line) == [
            #"{"event":"team","lastHeard":"2027-01-15T08:00:01Z","online":true,"pages":2,"team":"red","trust":"hardware"}"#,
            #"{"event":"unlock","message":"01ababababababababababababababab","openedAt":"2027-01-15T08:00:00.250Z","page":2,"#
                + #""team":"red","title":"Clue\n1","trust":"simulated"}"#,
            #"{"event":"refused","reason":"replayed","why":"already received"}"#,
        ])
        for event in events {
            #expect(try ChestJSON.decoder().decode(BoardEvent.self, from: Data(event.line.utf8)) == event)
        }
        #expect(throws: DecodingError.self) {
            try ChestJSON.decoder().decode(BoardEvent.self, from: Data(#"{"event":"unlock","team":"red"}"#.utf8))
        }
    }
}
