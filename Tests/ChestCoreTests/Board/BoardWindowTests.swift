import Foundation
import Testing

@testable import ChestCore

/// The board's side of the hunt's window (docs/HUNTS.md "The hunt's start and end", "Points"): nothing credited or
/// charged outside it, by the board's own clock, and no points for a page reached before the start (issue 45).
@Suite struct BoardWindowTests {
    typealias Core = BoardCoreTests
    let core = BoardCoreTests()
    /// The hunt starts 100 s after the fixtures' t0 and ends 1,000 s after it.
    static let starts = 100.0, ends = 1_000.0

    static func windowedHunt() -> HuntFile {
        var file = Core.scoredHunt()
        file.version = HuntFile.scheduledVersion
        file.starts = CoreFixture.t0.addingTimeInterval(starts)
        file.ends = CoreFixture.t0.addingTimeInterval(ends)
        return file
    }

    /// A proven receipt of message 1's page 1 (worth 3), heard at `seconds`, whose evidence fixes were taken at
    /// `fixes` and whose place was reached at `reached` (seconds after t0).
    func receipt(_ team: String, id: UInt64, at seconds: Double, fixes: [Double], reached: Double? = nil)
        -> BoardCore.Heard
    {
        var heard = core.receipt(
            team, id: id, message: 1, reader: team == "red" ? Core.redReader : Core.blueReader, at: seconds)
        guard case .receipt(var receipt, let claim)? = heard.envelope?.body else { return heard }
        receipt.evidence.fixes = fixes.map { UnlockEvidence.ConfirmingFix(CoreFixture.fix(at: $0)) }
        receipt.evidence.reachedAt = reached.map(CoreFixture.t0.addingTimeInterval)
        heard.envelope?.body = .receipt(receipt, readerClaim: claim)
        return heard
    }

    /// Issue 45, item 3: a hint asked after the end is refused like a receipt after the end, neither answered nor
    /// charged, and the final ranking does not move; one asked before it is answered and charged.
    @Test func aHintAskedAfterTheEndIsNeitherGivenNorCharged() {
        var board = BoardCore(hunt: Self.windowedHunt(), answersHints: true)
        for heard in [
            core.status("red", id: 1, reader: Core.redReader, at: 150),
            core.status("blue", id: 1, reader: Core.blueReader, at: 150),
            core.receipt("red", id: 1, message: 1, reader: Core.redReader, at: 200),  // red 3
            core.receipt("blue", id: 1, message: 2, reader: Core.blueReader, at: 300),
        ] {  // blue 1
            _ = board.handle(.heard(heard))
        }
        let inTime = board.handle(.heard(core.hintRequest("blue", id: 2, hint: 1, at: 999)))
        // Hint 2 (600 s after blue's start at 150) is due by now and given free beside the one asked for.
        #expect(Core.answers(inTime).map { "\($0.hint) \($0.cost)" }.sorted() == ["1 1", "2 0"])
        #expect(board.board.teams[1].points == 0, "asked before the end: given, 1 charged")
        let final = board.board.leaderboard().map { "\($0.name) \($0.points)" }
        let late = board.handle(.heard(core.hintRequest("red", id: 2, hint: 2, at: 1_005)))
        #expect(Core.answers(late).isEmpty, "after the end the board gives nothing")
        #expect(Core.reasons(late) == ["afterEnd"])
        #expect(board.board.teams[0].points == 3 && board.board.teams[0].hints.isEmpty, "and charges nothing")
        #expect(board.board.teams[0].refusals == ["afterEnd": 1] && board.gate.refused[.afterEnd] == 1)
        #expect(board.board.leaderboard().map { "\($0.name) \($0.points)" } == final, "the final ranking never moves")
        // Replayed from the journal, the late request is refused again: a restart does not charge it either.
        var restarted = BoardCore(hunt: Self.windowedHunt(), answersHints: true)
        for heard in [
            core.status("red", id: 1, reader: Core.redReader, at: 150),
            core.hintRequest("red", id: 2, hint: 2, at: 1_005),
        ] {
            _ = restarted.handle(.replayed(heard))
        }
        #expect(restarted.board.teams[0].points == 0 && restarted.board.teams[0].hints.isEmpty)
    }

    /// Issue 45, item 2 (the board's side): a receipt received before the start is refused as `beforeStart` and
    /// counted, even when its proof holds; the same page proven after the start is credited.
    @Test func aReceiptReceivedBeforeTheStartIsNotCredited() {
        var board = BoardCore(hunt: Self.windowedHunt(), answersHints: true)
        _ = board.handle(.heard(core.status("red", id: 1, reader: Core.redReader, at: 10)))
        let early = board.handle(.heard(core.receipt("red", id: 1, message: 1, reader: Core.redReader, at: 50)))
        #expect(Core.reasons(early) == ["beforeStart"])
        #expect(
            Core.events(early).contains {
                if case let .refused(_, team, why) = $0 {
                    team == "red" && why.contains("before the hunt started")
                } else {
                    false
                }
            })
        #expect(
            board.board.teams[0].pages.isEmpty && board.board.teams[0].points == 0 && !board.board.teams[0].isRanked)
        #expect(board.gate.refused[.beforeStart] == 1 && board.board.teams[0].refusals == ["beforeStart": 1])
        // Nor is a hint given or charged before the start.
        let hint = board.handle(.heard(core.hintRequest("red", id: 2, hint: 1, at: 60)))
        #expect(
            Core.answers(hint).isEmpty && Core.reasons(hint) == ["beforeStart"] && board.board.teams[0].hints.isEmpty)
        let inTime = board.handle(.heard(receipt("red", id: 2, at: 120, fixes: [118, 119])))
        #expect(Core.reasons(inTime).isEmpty && board.board.teams[0].points == 3)
    }

    /// Issue 45, item 2: a page whose receipt says its place was reached before the start (its fixes, or its
    /// `reachedAt`, older than the start) is credited, marked, and scores nothing, so walking the course early never
    /// ranks a team first.
    @Test func aPageReachedBeforeTheStartIsMarkedAndScoresNothing() throws {
        var board = BoardCore(hunt: Self.windowedHunt(), answersHints: true)
        _ = board.handle(.heard(core.status("red", id: 1, reader: Core.redReader, at: 10)))
        _ = board.handle(.heard(core.status("blue", id: 1, reader: Core.blueReader, at: 10)))
        // Red walked there an hour early and its page opened at the start; blue came at 400 s.
        let walked = board.handle(
            .heard(receipt("red", id: 1, at: 101, fixes: [-3_600, -3_599, -3_598], reached: -3_598)))
        let red = try #require(board.board.teams.first { $0.name == "red" })
        #expect(red.pages.count == 1 && red.pages[0].early == CoreFixture.t0.addingTimeInterval(-3_600))
        #expect(red.points == 0 && red.earlyPages == 1)
        #expect(
            Core.events(walked).contains {
                if case let .unlock(_, _, _, _, _, _, _, proof, _) = $0 {
                    proof == "proven: reached before the start"
                } else {
                    false
                }
            })
        _ = board.handle(.heard(receipt("blue", id: 1, at: 400, fixes: [397, 398, 399], reached: 399)))
        #expect(board.board.leaderboard().map(\.name).prefix(2) == ["blue", "red"], "the early walker is not first")
        // Only the reach time can tell: the fixes are the latest before the page opened at the start.
        var other = BoardCore(hunt: Self.windowedHunt(), answersHints: true)
        _ = other.handle(.heard(core.status("red", id: 1, reader: Core.redReader, at: 10)))
        _ = other.handle(.heard(receipt("red", id: 1, at: 101, fixes: [100, 100.5, 101], reached: 40)))
        #expect(other.board.teams[0].earlyPages == 1 && other.board.teams[0].points == 0)
        let table = board.board.leaderboardText().split(separator: "\n").map {
            $0.split(separator: " ").prefix(8).joined(separator: " ")
        }
        #expect(
            table.prefix(3) == [
                "# TEAM POINTS PAGES GUARDED HINTS ADJUSTED EARLY", "1 blue 3 1 0 0 0 0", "2 red 0 1 0 0 0 1",
            ], "\(table)")
    }
}
