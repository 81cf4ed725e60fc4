import ChestCore
import ChestIO
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// The organiser's board in a browser (docs/HUNTS.md "The board in a browser"): `chest board --http` over a real
/// Mosquitto broker with two teams' chestd, read by headless Chromium and by an event stream; off loopback only
/// with its token, asked once, then carried by a cookie.
@Suite(.realProcesses, .tags(.process, .mosquitto, .chromium), .timeLimit(.minutes(5)))
struct BoardWebTests {
    static let hostile = "<script>alert(1)</script>"

    @Test func chromiumShowsBothTeamsWithTheirCountsAndTheStreamDeliversANewUnlockWithinASecond() throws {
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        let hunt = try HuntWorld(teams: ["red", "blue"], broker: broker)
        let (red, blue) = (hunt.teams[0], hunt.teams[1])
        // Red opens two pages, one of them titled with a script; blue opens one. A fountain's place, kept visible,
        // is the map's target; nobody goes there.
        let gift = try hunt.compose("gift", ["--lock", "time=2020-01-01T00:00:00Z"])
        let script = hunt.organiserWorld.root + "/script.locked"
        let made = try hunt.organiser([
            "compose", "--seal-cost", "interactive", "-o", script, "--title", Self.hostile + "\u{202E}der",
            "--page", "p", "--lock", "time=2020-01-01T00:00:00Z", "--hunt", hunt.huntPath,
        ])
        #expect(made.status == 0, "\(made.stderr)")
        _ = try hunt.compose(
            "fountain", ["--lock", "location=46.2044,6.1432/40m,visible", "--or", "--lock", "pin=4821"])
        _ = try hunt.compose("bridge", ["--lock", "location=46.2060,6.1440/30m,visible=Old <bridge>"])
        let board = try WebBoard(hunt.organiserWorld, ["board", hunt.huntPath, "--http", "127.0.0.1:0", "--json"])
        defer { board.stop() }
        for (message, team) in [(gift, red), (script, red), (gift, blue)] { try hunt.give(message, to: team) }
        try red.world.startDaemon()
        try blue.world.startDaemon()
        try red.world.waitUntil("the board credits red two pages and blue one", timeout: 60) {
            let unlocks = board.events.filter { $0["event"]?.string == "unlock" }
            return unlocks.count { $0["team"]?.string == "red" } == 2
                && unlocks.count { $0["team"]?.string == "blue" } == 1
        }

        // The page in a real browser: both teams with their counts, the script's title as text, nothing refused by
        // the Content-Security-Policy (the page's own style and script are the board's).
        let dom = try Chromium.run(["--dump-dom", board.url])
        #expect(dom.status == 0, "\(dom.stderr)")
        #expect(dom.stdout.contains(#"<tr data-team="red" data-pages="2">"#), "\(dom.stdout)")
        #expect(dom.stdout.contains(#"<tr data-team="blue" data-pages="1">"#), "\(dom.stdout)")
        #expect(dom.stdout.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "the title shows as text")
        // A right-to-left override in it is written out, never passed to the browser to reorder the line.
        #expect(dom.stdout.contains(#"alert(1)&lt;/script&gt;\u{202e}der</bdi>"#), "\(dom.stdout)")
        #expect(!dom.stdout.unicodeScalars.contains { $0.value == 0x202E })
        #expect(dom.stdout.components(separatedBy: "<script").count == 2, "the page's own script only: \(dom.stdout)")
        #expect(!dom.stderr.contains("Content Security Policy"), "\(dom.stderr)")
        #expect(
            dom.stdout.contains(#"<circle class="target""#) && dom.stdout.contains("fountain p1"),
            "the visible target on the map")
        #expect(dom.stdout.contains("Old &lt;bridge&gt;</text>"), "a target under the organiser's name for it")
        // The results so far, from the same board: red first with its two pages, in the board's own style.
        let results = try Chromium.run(["--dump-dom", board.url + "results"])
        #expect(results.stdout.contains(#"<tr data-team="red"><td class="rank">1</td>"#), "\(results.stdout)")
        #expect(
            results.stdout.contains(#"<link rel="stylesheet" href="/results.css">"#)
                && !results.stderr.contains("Content Security Policy"),
            "\(results.stderr)")
        #expect(dom.stdout.contains(#"<a href="/results">results</a>"#))
        let picture = hunt.organiserWorld.root + "/board.png"
        let shot = try Chromium.run([
            "--screenshot=" + picture, "--window-size=1920,1080", "--hide-scrollbars", board.url,
        ])
        #expect(shot.status == 0, "\(shot.stderr)")
        #expect(try Chromium.pngSize(picture) == (1920, 1080))

        // A browser following the stream hears a new unlock within a second of the board believing it.
        let stream = try EventStreamReader(port: board.port)
        defer { stream.close() }
        try red.world.waitUntil("the stream sends the current state first", timeout: 20) {
            stream.lines.contains { $0.line == "event: sections" }
        }
        try hunt.give(try hunt.compose("late", ["--lock", "time=2020-01-01T00:00:00Z"]), to: blue)
        var heard: (at: Date, line: String)?
        try blue.world.waitUntil("the stream tells of blue's new page", timeout: 40) {
            heard = stream.lines.first {
                $0.line.hasPrefix("data: {\"event\":\"unlock\"") && $0.line.contains(#""title":"late""#)
            }
            return heard != nil
        }
        let line = try #require(heard)
        let event = try JSON(Data(line.line.dropFirst(6).utf8))
        let believed = try #require((event["receivedAt"]?.string).flatMap { ISO8601.parse($0) })
        #expect(
            line.at.timeIntervalSince(believed) < 1,
            "heard \(line.at.timeIntervalSince(believed)) s after the board believed it")
        #expect(event["team"]?.string == "blue")
        // And the parts of the page that changed came with it: blue now has two pages.
        #expect(
            stream.lines.contains {
                $0.line.hasPrefix("data: {") && $0.line.contains(#"data-team=\"blue\" data-pages=\"2\""#)
            })

        // A browser that reconnects gets the current state first.
        stream.close()
        let again = try EventStreamReader(port: board.port)
        defer { again.close() }
        var first: String?
        try blue.world.waitUntil("the reconnected stream's first state", timeout: 20) {
            first = again.lines.first { $0.line.hasPrefix("data: {") }?.line
            return first != nil
        }
        #expect(again.lines.first { $0.line.hasPrefix("event: ") }?.line == "event: sections")
        #expect(
            first?.contains(#"data-team=\"blue\" data-pages=\"2\""#) == true
                && first?.contains(#"data-team=\"red\" data-pages=\"2\""#) == true,
            "\(first ?? "")")
    }

    @Test func offLoopbackTheBoardNeedsItsTokenOnceThenACookieAndAnswersNothingButReads() throws {
        let organiser = ChestHarness()
        let huntPath = organiser.root + "/t.hunt"
        // No broker runs: the board serves what it has while it keeps trying to reach it.
        #expect(
            try organiser.chest(["hunt", "create", "Token hunt", "--broker", "mqtt://127.0.0.1:9", "-o", huntPath])
                .status == 0)
        #expect(
            try organiser.chest(["hunt", "team", "add", "red", "--hunt", huntPath, "-o", organiser.root + "/red.hunt"])
                .status == 0)
        // The organiser's colour for a team; a colour the board does not know is a usage error.
        #expect(
            try organiser.chest([
                "hunt", "team", "add", "owls", "--colour", "#00AA88", "--hunt", huntPath,
                "-o", organiser.root + "/owls.hunt",
            ]).status == 0)
        let octarine = try organiser.chest([
            "hunt", "team", "add", "wizards", "--colour", "octarine", "--hunt", huntPath,
        ])
        #expect(octarine.status == 64 && octarine.stderr.contains("--colour takes a colour name"), "\(octarine)")

        let refused = try organiser.chest(["board", huntPath, "--http", "0.0.0.0:0", "--quiet"])
        #expect(refused.status == 64)
        #expect(
            refused.stderr.contains("lets anyone who can reach this machine read the board; add --http-token TOKEN"),
            "\(refused.stderr)")

        let token = "c0ffee0123456789abcdef"
        let board = try WebBoard(
            organiser, ["board", huntPath, "--http", "0.0.0.0:0", "--http-token", token, "--quiet"])
        defer { board.stop() }
        let taken = try organiser.chest(["board", huntPath, "--http", "127.0.0.1:\(board.port)", "--quiet"])
        #expect(
            taken.status == 1 && taken.stderr.contains("another program listens there: choose another port"), "\(taken)"
        )
        #expect(try WebClient.request(port: board.port, path: "/").status == 401)
        #expect(try WebClient.request(port: board.port, path: "/events").status == 401)
        #expect(try WebClient.request(port: board.port, path: "/?token=c0ffee0123456789abcdeX").status == 401)
        let first = try WebClient.request(port: board.port, path: "/?token=" + token)
        #expect(first.status == 303 && first.headers["location"] == "/")
        #expect(first.headers["set-cookie"] == "chest-board=\(token); HttpOnly; SameSite=Strict; Path=/")
        let cookie = ["Cookie": "chest-board=\(token)"]
        let page = try WebClient.request(port: board.port, path: "/", headers: cookie)
        #expect(page.status == 200 && page.body.contains(#"<tr data-team="red" data-pages="0">"#))
        #expect(
            page.body.contains(##"fill="#00aa88"/></svg>owls</td>"##)
                && page.body.contains(##"fill="#d62728"/></svg>red</td>"##),
            "owls in its colour, red in red")
        #expect(
            page.headers["content-security-policy"]?.hasPrefix(
                "default-src 'none'; script-src 'self'; style-src 'self'") == true)
        for method in ["POST", "PUT", "DELETE"] {
            let write = try WebClient.request(method, port: board.port, path: "/", headers: cookie)
            #expect(write.status == 405 && write.headers["allow"] == "GET, HEAD", "\(method)")
        }
        let json = try WebClient.request(port: board.port, path: "/board.json", headers: cookie)
        let state = try JSON(json.body)
        #expect(state["hunt"]?.string == "Token hunt")
        #expect((state["teams"]?.array)?.map { $0["team"]?.string } == ["owls", "red"])
        let stream = try EventStreamReader(port: board.port, headers: cookie)
        defer { stream.close() }
        try organiser.waitUntil("the stream answers with the cookie", timeout: 20) {
            stream.lines.contains { $0.line == "event: sections" }
        }

        // A real browser, given the token once in the address, follows the redirect with its cookie to the page.
        let browser = try Chromium.run(["--dump-dom", "http://127.0.0.1:\(board.port)/?token=\(token)"])
        #expect(browser.stdout.contains(#"<tr data-team="red" data-pages="0">"#), "\(browser.stdout) \(browser.stderr)")
    }
}

/// `chest board … --http ADDR:0` running, with the port it took (from its "serving the board on" line).
final class WebBoard {
    let process: TestProcess
    let output: String
    let port: Int

    /// With `descriptorLimit`, the board runs under that limit on open descriptors (prlimit(1)), soft and hard.
    init(_ world: ChestHarness, _ arguments: [String], descriptorLimit: Int? = nil) throws {
        let output = world.root + "/board-\(UUID().uuidString)"
        self.output = output
        let chest = ChestHarness.products + "/chest"
        let (program, all) =
            descriptorLimit.map { ("/usr/bin/prlimit", ["--nofile=\($0):\($0)", chest] + arguments) } ?? (
                chest, arguments
            )
        process = try TestProcess(
            program, all, wholeEnvironment: world.environment(user: "alice"),
            stdout: output + ".out", stderr: output + ".err")
        var port: Int?
        try world.waitUntil("the board serves", timeout: 30) {
            let text = (try? String(contentsOfFile: output + ".err", encoding: .utf8)) ?? ""
            guard
                let line = text.split(separator: "\n").first(where: {
                    $0.hasPrefix("chest: serving the board on http://")
                }),
                let colon = line.dropFirst("chest: serving the board on http://".count).split(separator: "/").first?
                    .split(separator: ":").last
            else { return false }
            port = Int(colon)
            return port != nil
        }
        self.port = port ?? 0
    }

    var url: String { "http://127.0.0.1:\(port)/" }

    /// A hunt of three teams (team-1 to team-3) whose broker never answers, for a board that serves what it has
    /// while it keeps trying to reach it; its path.
    static func brokerlessHunt(_ organiser: ChestHarness, _ name: String) throws -> String {
        let huntPath = organiser.root + "/\(UUID().uuidString).hunt"
        #expect(
            try organiser.chest(["hunt", "create", name, "--broker", "mqtt://127.0.0.1:9", "-o", huntPath]).status == 0)
        #expect(try organiser.chest(["hunt", "team", "add", "team", "--count", "3", "--hunt", huntPath]).status == 0)
        return huntPath
    }

    /// The `--json` lines so far.
    var events: [JSON] {
        ((try? String(contentsOfFile: output + ".out", encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
            JSON.object($0)
        }
    }

    func stop() {
        process.terminate()
    }
}
