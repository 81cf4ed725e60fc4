import ChestCore
import ChestIO
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// Missions over a real Mosquitto running examples/mosquitto/hunt.acl and hunt.conf's packet size (docs/HUNTS.md
/// "Missions", issue 57.1, 57.2, 57.4): two teams submit a photo and a text for a mission page, hostile files are
/// refused before anything is sent, the board lists both (its JSON, the photo served as image/png, the panel in
/// Chromium), the organiser accepts one for 5 points and rejects the other, each team hears its verdict, nothing
/// crosses the broker in the clear, and a restarted board keeps it all.
@Suite(.realProcesses, .tags(.process, .mosquitto), .serialized, .timeLimit(.minutes(10)))
struct HuntMissionEndToEndTests {
    /// A 1 × 1 PNG.
    static let pixel = Data(
        base64Encoded:
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==")!

    static func said(_ path: String) -> [JSON] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
            JSON.object($0)
        }.filter { $0["event"]?.string == "said" }
    }

    static func document(_ board: WebBoard) throws -> JSON {
        let json = try WebClient.request(port: board.port, path: "/board.json")
        return JSON.object(json.body) ?? [:]
    }

    static func submissions(_ board: WebBoard) throws -> [JSON] {
        try document(board)["submissions"]?.array ?? []
    }

    static func points(_ board: WebBoard, _ team: String) throws -> Int? {
        (try document(board)["teams"]?.array)?.first { $0["team"]?.string == team }?["points"]?.int
    }

    @Test func twoTeamsSubmitTheOrganiserJudgesAndEachTeamHearsItsVerdict() throws {
        let acl = try HuntACLBroker()
        let broker = acl.broker
        defer { broker.stop() }
        let hunt = try HuntWorld(teams: ["red", "blue"], broker: broker)
        let path = try hunt.compose(
            "Fountain", ["--lock", "time=2020-01-01T00:00:00Z", "--points", "5", "--mission"])
        let id = try #require(hunt.ids["Fountain"])
        let file = try HuntFile.read(path: hunt.huntPath)
        #expect(file.messages?[MessageID(id)!]?.pages.first?.mission == true, "the hunt file records the mission")
        let organiserPassword = try #require(file.organiserPassword)
        try acl.admit(file)
        let (red, blue) = (hunt.teams[0], hunt.teams[1])
        let everything = try broker.subscriber(
            ["chest/#"], username: HuntFile.organiserUser, password: organiserPassword)
        defer { everything.terminate() }

        var board = try WebBoard(hunt.organiserWorld, ["board", hunt.huntPath, "--http", "127.0.0.1:0", "--json"])
        defer { board.stop() }
        try red.startConnected()
        try blue.startConnected()
        var watches: [String: TeamWatch] = [:]
        for team in [red, blue] {
            try hunt.give(path, to: team)
            try team.world.waitUntil("\(team.name) has the message", timeout: 60) {
                try team.world.chest(["read", id]).status == 0
            }
            watches[team.name] = try TeamWatch(team, timeout: 400)
        }

        // Refused before anything is sent: a 40 MB file, an SVG and an HTML page named .png, a header that claims
        // 100,000 × 100,000 pixels, a text with control characters.
        let root = red.world.root
        let huge = root + "/huge.png"
        FileManager.default.createFile(atPath: huge, contents: Self.pixel)
        #expect(truncate(huge, 40_000_000) == 0)
        let svg = root + "/drawing.png"
        try #"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#.write(
            toFile: svg, atomically: true, encoding: .utf8)
        let html = root + "/page.png"
        try "<!DOCTYPE html><html><script>alert(1)</script></html>".write(
            toFile: html, atomically: true, encoding: .utf8)
        var giant = Self.pixel
        giant.replaceSubrange(16..<24, with: [0x00, 0x01, 0x86, 0xA0, 0x00, 0x01, 0x86, 0xA0])
        let claims = root + "/giant.png"
        FileManager.default.createFile(atPath: claims, contents: giant)
        for (file, says) in [
            (huge, "38.1 MiB; a mission's photo is at most 8 MiB"), (svg, "it is an SVG drawing"),
            (html, "it is an HTML page"), (claims, "claims 100000 × 100000 pixels"),
        ] {
            let refused = try red.world.chest(["hunt", "submit", id, "1", "--file", file])
            #expect(refused.status != 0 && refused.stderr.contains(says), "\(refused)")
            #expect(refused.stderr.contains("nothing was sent"), "\(refused)")
        }
        let control = try red.world.chest(["hunt", "submit", id, "1", "--text", "ring\u{1B}[2Jbell"])
        #expect(control.status == 64 && control.stderr.contains("control characters"), "\(control)")
        #expect(try red.hunt()["outbox"]?.int == 0, "nothing in red's outbox")

        // Red sends a photo of nearly 8 MiB (a PNG with bytes after its end), blue a text.
        var photo = Self.pixel
        photo.append(Data(repeating: 0x5a, count: (8 << 20) - 4096 - photo.count))
        let photoPath = root + "/fountain.PNG"
        FileManager.default.createFile(atPath: photoPath, contents: photo)
        let sent = try red.world.chest(["hunt", "submit", id, "1", "--file", photoPath])
        #expect(sent.status == 0 && sent.stdout.contains("sealed to the organiser"), "\(sent)")
        let answer = "The guide said the fountain was built in 1642, after the fire."
        let typed = try blue.world.chest(["hunt", "submit", id, "1", "--text", answer])
        #expect(typed.status == 0, "\(typed)")
        try hunt.organiserWorld.waitUntil("the board lists both submissions", timeout: 180) {
            try Self.submissions(board).count == 2
        }
        let listed = try Self.submissions(board)
        #expect(listed.map { $0["team"]?.string } == ["red", "blue"], "oldest first: \(listed)")
        #expect(listed.allSatisfy { $0["message"]?.string == id && $0["page"]?.int == 1 })
        #expect(listed.allSatisfy { $0["state"]?.string == "waiting" && $0["received"]?.string != nil })
        #expect(listed.map { $0["kind"]?.string } == ["png", "text"])
        #expect(listed[1]["text"]?.string == answer && listed[1]["photo"] == nil)
        let link = try #require(listed[0]["photo"]?.string)
        #expect(link.hasPrefix("/photo/") && link.hasSuffix(".png"), "\(link)")
        let served = try WebClient.request(port: board.port, path: link)
        #expect(served.status == 200 && served.headers["content-type"] == "image/png", "\(served.headers)")
        #expect(served.headers["x-content-type-options"] == "nosniff")
        #expect(served.headers["content-security-policy"]?.hasPrefix("default-src 'none'") == true)
        #expect(served.body.contains("IHDR") && served.body.utf8.count > 8_000_000)
        #expect(try WebClient.request(port: board.port, path: "/photo/../../test.hunt").status == 404)
        #expect(
            board.events.contains { $0["event"]?.string == "submitted" && $0["team"]?.string == "blue" },
            "board --json")

        // The panel in Chromium: the photo drawn as an image, the text beside it.
        let page = try ChromiumPage(board.url, width: 1920, height: 1080)
        try page.waitFor("the panel's photo is drawn") {
            try page.evaluate("document.querySelector('#judge img')?.naturalWidth ?? 0")?.int == 1
        }
        #expect(try page.evaluate("document.querySelector('#judge').textContent.includes('1642')")?.bool == true)

        // On the broker: both submissions, sealed; neither the text nor the photo's bytes in the clear.
        try hunt.organiserWorld.waitUntil("the organiser's subscription has both", timeout: 60) {
            everything.outputText.contains("/red/submit/") && everything.outputText.contains("/blue/submit/")
        }
        // The text has spaces, which no base64 or signature has.
        #expect(!everything.outputText.contains("after the fire"), "never in the clear on the broker")
        #expect(!everything.outputText.contains(Self.pixel.base64EncodedString().prefix(40)))

        // The organiser accepts red's for 5 points and rejects blue's; each team hears its verdict.
        let accepted = try hunt.organiser(
            ["hunt", "judge", "red", id, "1", "--accept", "--points", "5", "all of you", "--hunt", hunt.huntPath])
        #expect(accepted.status == 0 && accepted.stdout.contains("accepted, 5 points"), "\(accepted)")
        let rejected = try hunt.organiser(
            ["hunt", "judge", "blue", id, "1", "--reject", "not the year on the plaque", "--hunt", hunt.huntPath])
        #expect(rejected.status == 0, "\(rejected)")
        let twice = try hunt.organiser(["hunt", "judge", "blue", id, "1", "--accept", "--hunt", hunt.huntPath])
        #expect(twice.status != 0 && twice.stderr.contains("judged already"), "\(twice)")
        try hunt.organiserWorld.waitUntil("the board counts red's 5 points", timeout: 60) {
            try Self.points(board, "red") == 5
        }
        #expect(try Self.points(board, "blue") == 0)
        let judged = try Self.submissions(board)
        #expect(Set(judged.map { $0["state"]?.string }) == ["accepted", "rejected"], "\(judged)")
        let redWatch = try #require(watches["red"]).path
        let blueWatch = try #require(watches["blue"]).path
        try red.world.waitUntil("red hears its verdict", timeout: 60) { !Self.said(redWatch).isEmpty }
        try blue.world.waitUntil("blue hears its verdict", timeout: 60) { !Self.said(blueWatch).isEmpty }
        #expect(
            Self.said(redWatch).first?["text"]?.string
                == "mission \(id.prefix(8)) page 1 accepted: 5 points: all of you")
        #expect(Self.said(redWatch).first?["toTeam"]?.string == "red")
        #expect(
            (Self.said(blueWatch).first?["text"]?.string)?.contains("rejected: not the year on the plaque") == true)
        #expect(Self.said(blueWatch).count == 1 && Self.said(redWatch).count == 1, "each hears its own alone")

        // Results and Latest show the accepted mission with its points; /results?photos the photo.
        let latest = try WebClient.request(port: board.port, path: "/")
        #expect(latest.body.contains("accepted: 5 points"), "Latest")
        let results = try WebClient.request(port: board.port, path: "/results?photos")
        #expect(results.body.contains(#"<img src="\#(link)""#), "\(results.body)")
        #expect(!(try WebClient.request(port: board.port, path: "/results").body.contains("<img")))

        // Blue may submit again after the rejection, even while the broker is away: it waits in blue's outbox and
        // reaches the board once the broker is back.
        broker.kill()
        try blue.world.waitUntil("blue knows the broker is away", timeout: 60) {
            try blue.hunt()["connected"]?.bool == false
        }
        let offline = try blue.world.chest(["hunt", "submit", id, "1", "--text", "1642, on the plaque."])
        #expect(offline.status == 0 && offline.stdout.contains("waits in the outbox"), "\(offline)")
        #expect(try blue.hunt()["outbox"]?.int ?? 0 >= 1)
        try broker.restart()
        try hunt.organiserWorld.waitUntil("blue's second submission waits on the board", timeout: 120) {
            try Self.submissions(board).first.map {
                $0["state"]?.string == "waiting" && $0["text"]?.string == "1642, on the plaque."
            } ?? false
        }
        // The board, restarted, keeps every submission and verdict.
        let before = try Self.submissions(board).map { "\($0["team"]!) \($0["state"]!) \($0["digest"]!)" }
        board.stop()
        board = try WebBoard(hunt.organiserWorld, ["board", hunt.huntPath, "--http", "127.0.0.1:0", "--json"])
        try hunt.organiserWorld.waitUntil("the restarted board has them all", timeout: 60) {
            try Self.submissions(board).count == 3
        }
        #expect(try Self.submissions(board).map { "\($0["team"]!) \($0["state"]!) \($0["digest"]!)" } == before)
        #expect(try Self.points(board, "red") == 5)
        #expect(try WebClient.request(port: board.port, path: link).headers["content-type"] == "image/png")
    }
}
