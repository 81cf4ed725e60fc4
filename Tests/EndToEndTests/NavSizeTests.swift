import ChestCore
import ChestTestSupport
import Foundation
import Testing

/// `chest nav` at 80×24 (issue 59 item 5, docs/QUEST.md and `man chest` "nav"), under tmux with a real chestd: "… N
/// more" counts the goals left out, not lines; a page's question shows before it is answered, a riddle's too; goal
/// and event lines cut the title and keep "pN" and "page N"; `nav --once` fits COLUMNS.
@Suite(.realProcesses, .tags(.process), .timeLimit(.minutes(5)))
struct NavSizeTests {
    static let longTitle = "The long walk along the painted doors of the old town and the harbour, stage one"
    static let kinds = [
        "place", "sealed", "altitude", "time", "chain", "weather", "temperature", "pin", "release", "answer",
    ]

    /// A quest of more goals than 24 rows hold, some of two lines (a question wraps at 80 columns), one message of a
    /// long title, and a riddle: a question a visible place opens.
    static func dropQuest(into world: ChestHarness) throws {
        let later = ISO8601.string(Date().addingTimeInterval(86_400))
        let quest = """
            from: Alice
            message: riddle
            title: Riddle
            page: The door.
              question: What colour is the door of the town hall, the one under the clock?
              lock: location=47.377854,8.543109/25m,visible=Town hall
            page: Windows.
              question: How many windows has the tower above the market square, counting the round ones too?
              lock: answer=twelve|12
            page: Higher.
              lock: altitude=400..500
            page: Next day.
              lock: time=\(later)
            page: Chain.
              lock: after=#4
            message: walk
            title: \(longTitle)
            page: One.
              lock: time=\(later)
            page: Two.
              lock: after=#1
            page: Three.
              question: Which bridge did the painter of the doors cross every morning on the way to the harbour?
              lock: answer=old bridge
            page: Four.
              lock: after=#3
            page: Five.
              lock: location=47.3790,8.5450/25m,visible=Harbour gate

            """
        try quest.write(toFile: world.root + "/size.quest", atomically: true, encoding: .utf8)
        let built = try world.chest(
            [
                "compose", "--seal-cost", "interactive", "--quest", world.root + "/size.quest", "-o",
                world.root + "/built",
            ],
            user: "alice")
        #expect(built.status == 0, "\(built.stderr)")
        for name in ["riddle", "walk"] {
            try FileManager.default.copyItem(
                atPath: world.root + "/built/\(name).locked", toPath: world.chest + "/\(name).locked")
        }
    }

    @Test func navAt80By24CountsGoalsShowsQuestionsAndKeepsPageNumbers() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") else {
            Issue.record("tmux is missing; make deps installs it")
            return
        }
        let world = ChestHarness()
        try Self.dropQuest(into: world)
        try world.startDaemon()
        try world.waitUntil("both messages are in", timeout: 20) { try world.list().count == 2 }
        let tmux = Tmux(socket: world.root + "/tmux.sock")
        let environment = world.environment().flatMap { ["-e", "\($0.key)=\($0.value)"] }
        try tmux.run(
            ["new-session", "-d", "-s", "nav", "-x", "80", "-y", "24"] + environment
                + [ChestHarness.products + "/chest", "nav"])
        defer { _ = try? tmux.run(["kill-server"]) }
        let screen = try tmux.waitFor("the goals") { $0.contains("Goals (") && $0.contains(" more") }
        let lines = screen.split(separator: "\n").map(String.init)
        func number(after pattern: String) -> Int? {
            screen.range(of: pattern, options: .regularExpression).flatMap { found in
                Int(screen[found].filter(\.isNumber))
            }
        }
        let total = try #require(number(after: #"Goals \(\d+\)"#), "\(screen)")
        let more = try #require(number(after: #"… \d+ more"#), "\(screen)")
        let goalLine = "^[▶ ] \\S (" + Self.kinds.joined(separator: "|") + ") "
        let listed = lines.count { $0.range(of: goalLine, options: .regularExpression) != nil }
        #expect(listed + more == total, "\(listed) goals listed and \(more) more of \(total):\n\(screen)")
        // The riddle's question, before its page opens (the visible place is the goal picked: the only one near).
        #expect(screen.contains("What colour is the door"), "\(screen)")
        // The long title is cut, never its page.
        let walking = lines.filter {
            $0.contains("The long walk")
                && ($0.hasPrefix("▶ ") || $0.range(of: goalLine, options: .regularExpression) != nil)
        }
        #expect(!walking.isEmpty, "\(screen)")
        for line in walking {
            #expect(line.range(of: #" p\d"#, options: .regularExpression) != nil, "the page number is cut: \(line)")
        }
        // An event line: a page that opens now, of a title longer than the line.
        let title = Self.longTitle + ", the last page of the evening by the harbour lights"
        let made = try world.chest(
            [
                "compose", "-o", world.root + "/now.locked", "--title", title, "--page", "Here.",
                "--lock", "time=2020-01-01T00:00:00Z",
            ], user: "alice")
        #expect(made.status == 0, "\(made.stderr)")
        try FileManager.default.copyItem(atPath: world.root + "/now.locked", toPath: world.chest + "/now.locked")
        let opened = try tmux.waitFor("the opening's event") { $0.contains("is open") }
        let event = try #require(opened.split(separator: "\n").first { $0.contains("is open") })
        #expect(event.contains("page 1 is open"), "the event line keeps its page: \(event)")
        #expect(event.contains("\"The long"), "\(event)")
        #expect(try tmux.quitsOnQ(), "nav did not quit on q")
    }

    @Test func onceFitsColumns() throws {
        let world = ChestHarness()
        try Self.dropQuest(into: world)
        try world.startDaemon()
        try world.waitUntil("both messages are in", timeout: 20) { try world.list().count == 2 }
        world.extraEnvironment["COLUMNS"] = "60"
        let outcome = try world.chest(["nav", "--once"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n")
        #expect(lines.count > 10, "\(outcome.stdout)")
        #expect(lines.allSatisfy { $0.count <= 60 }, "\(outcome.stdout)")
        #expect(outcome.stdout.contains("What colour is the door"), "\(outcome.stdout)")
    }
}
