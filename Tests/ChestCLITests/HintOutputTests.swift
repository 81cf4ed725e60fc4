import ChestIO
import Foundation
import Testing

@testable import ChestCLI
@testable import ChestCore

/// How `read`, `nav` and `chest hint` word a page's hints (docs/FORMAT.md "Hints"), from a real engine's report.
@Suite struct HintOutputTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    static let utc = Zone(identifier: "UTC")!
    static let id = MessageID(bytes: [1] + [UInt8](repeating: 0xcd, count: 15))

    static func report(opened: Bool) -> ReadReport {
        var page = Page(text: "Find the bench.", setA: [.pin(hash: "$argon2id$x")])
        page.hints = [
            PageHint(ciphertext: [], key: [UInt8](repeating: 1, count: 32), after: 600),
            PageHint(ciphertext: [], key: [UInt8](repeating: 2, count: 32)),
        ]
        var stored = StoredMessage(
            message: Message(id: id, title: "Bench", from: "Alice", created: t0, pages: [page]),
            state: MessageState(ingestedAt: t0), chest: .regular, sentByYou: false)
        if opened {
            stored.state.hints = [
                OpenHint(page: 1, hint: 1, at: t0.addingTimeInterval(600), text: "Look under the bench.")
            ]
        }
        var engine = Engine(gpsServer: "localhost:2947")
        _ = engine.handle(.loaded([stored], refused: [], Now(wall: t0, monotonic: 1000)))
        return engine.read(id, now: Now(wall: t0.addingTimeInterval(350), monotonic: 1350))!
    }

    @Test func readShowsEachHintAndHowTheClosedOnesOpen() {
        let closed = Output.read(Self.report(opened: false), timeZone: Self.utc)
        #expect(closed.contains("  hint 1 (closed): opens by itself at "), "\(closed)")
        #expect(closed.contains("  hint 2 (closed): ask for it: chest hint \(Self.id.short)"), "\(closed)")
        let open = Output.read(Self.report(opened: true), timeZone: Self.utc)
        #expect(open.contains("  hint 1: Look under the bench."), "\(open)")
        let json = String(
            decoding: try! JSONEncoder().encode(Output.ReadJSON(Self.report(opened: true))), as: UTF8.self)
        #expect(
            json.contains("\"hints\":[{") && json.contains("\"text\":\"Look under the bench.\"")
                && json.contains("\"number\":2"))
    }

    @Test func navShowsTheOpenHintsAndTheNextOnesCountdown() {
        let context = NavContext(now: Self.t0.addingTimeInterval(350), timeZone: Self.utc)
        let closed = NavGoal.goals(of: Self.report(opened: false), context)
        #expect(closed.first?.hints == "hint 1 opens in 0:04:10")
        let open = NavGoal.goals(of: Self.report(opened: true), context)
        #expect(open.first?.hints == "hint 1: Look under the bench. · hint 2: chest hint \(Self.id.short)")
    }

    @Test func chestHintSaysWhetherTheRequestWaitsInTheOutbox() {
        let asked = HintAnswer(
            id: Self.id, title: "Bench", page: 2, hint: 1, outcome: .asked, cost: 3, connected: false)
        #expect(
            HintCommand.sentence(asked)
                == "asked the organiser for hint 1 of page 2 of \"Bench\" (it costs 3 points); the broker is away: the request waits in the outbox; it is sent when the broker is back"
        )
        let opened = HintAnswer(id: Self.id, title: "Bench", page: 1, hint: 2, outcome: .opened, text: "It is green.")
        #expect(HintCommand.sentence(opened) == "hint 2 of page 1 of \"Bench\":\n  It is green.")
    }

    @Test func previewSaysHowEachHintOpens() {
        #expect(
            PreviewCommand.hintLines(
                draft: [HintDraft(text: "On the square.", after: 600), HintDraft(text: "Ask Marie.", cost: 3)],
                file: nil)
                == [
                    "  hint 1: On the square.",
                    "    opens by itself 10 min after the page becomes the reader's next goal",
                    "  hint 2: Ask Marie.", "    given only by the hunt's board, costs 3 points from the board",
                ])
        #expect(
            PreviewCommand.hintLines(draft: [], file: [PageHint(ciphertext: [], key: nil, cost: 0)])
                == ["  hint 1: given only by the hunt's board; its text is sealed"])
    }
}
