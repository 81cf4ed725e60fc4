import ChestCore
import ChestTestSupport
import Foundation
import Testing

/// The terminal board at its size (issue 59 item 5, docs/HUNTS.md "The board"): forty teams in a 120×30 terminal,
/// under tmux on a real mosquitto, keep the hunt's name, the column heads and the time left on the screen; the
/// teams are paged, as the web board pages them.
@Suite(.realProcesses, .tags(.process), .timeLimit(.minutes(5)))
struct BoardTerminalTests {
    @Test func fortyTeamsIn120By30KeepTheNameTheHeadsAndTheTimeAndArePaged() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") else {
            Issue.record("tmux is missing; make deps installs it")
            return
        }
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        let hunt = try HuntWorld(teams: [], broker: broker)
        let names = (1...40).map { "team-\($0)" }
        for name in names {
            let added = try hunt.organiser([
                "hunt", "team", "add", name, "--hunt", hunt.huntPath, "-o", hunt.organiserWorld.root + "/\(name).hunt",
            ])
            #expect(added.status == 0, "\(added.stderr)")
        }
        let ends = ISO8601.string(Date().addingTimeInterval(50 * 60))
        let scheduled = try hunt.organiser(["hunt", "schedule", "--hunt", hunt.huntPath, "--ends", ends])
        #expect(scheduled.status == 0, "\(scheduled.stderr)")
        let tmux = Tmux(socket: hunt.organiserWorld.root + "/tmux.sock")
        let environment = hunt.organiserWorld.environment(user: "alice").flatMap { ["-e", "\($0.key)=\($0.value)"] }
        try tmux.run(
            ["new-session", "-d", "-s", "nav", "-x", "120", "-y", "30"] + environment
                + [ChestHarness.products + "/chest", "board", hunt.huntPath])
        defer { _ = try? tmux.run(["kill-server"]) }
        func kept(_ screen: String) -> Bool {
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
            return lines.first?.contains("chest board") == true && lines.first?.contains("Test hunt") == true
                && lines.contains { $0.contains("the hunt ends in") }
                && lines.contains { $0.contains("TEAM") && $0.contains("POINTS") }
        }
        func page(_ screen: String) -> String? {
            screen.range(of: #"teams \d+–\d+ of 40"#, options: .regularExpression).map { String(screen[$0]) }
        }
        let first = try tmux.waitFor("the board connected, its first page of teams", timeout: 30) {
            $0.contains("connected") && $0.contains("team-1 ")
        }
        #expect(kept(first), "the name, the heads and the time are on the screen:\n\(first)")
        let firstPage = try #require(page(first), "the teams are paged:\n\(first)")
        #expect(first.split(separator: "\n").count <= 30)
        // The next page, every 8 s, with the name, the heads and the time still there.
        let second = try tmux.waitFor("the next page of teams", timeout: 30) {
            page($0).map { $0 != firstPage } ?? false
        }
        #expect(kept(second), "\(second)")
        let shown = Set(
            second.split(separator: "\n").compactMap { line in names.first { line.hasPrefix($0 + " ") } })
        #expect(!shown.isEmpty && shown.isDisjoint(with: ["team-1"]), "\(second)")
        #expect(try tmux.quitsOnQ(), "the board did not quit on q")
    }
}
