import ChestCore
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// Team names in the players' language (issue 56, item 4; docs/HUNTS.md "Team names"), with the real `chest`, the
/// real `mosquitto_passwd` and a real Mosquitto running examples/mosquitto/hunt.acl with a password file.
@Suite(.realProcesses, .tags(.process, .mosquitto), .timeLimit(.minutes(5)))
struct TeamNameTests {
    /// "Rеd" with a Cyrillic е (U+0435).
    static let imitation = "R\u{435}d"

    @Test func teamAddTakesNamesOfAnyScriptAndRefusesANameThatImitatesAnother() throws {
        let organiser = ChestHarness()
        let huntPath = organiser.root + "/spring.hunt"
        let created = try organiser.chest(
            ["hunt", "create", "Möwen-Jagd", "--broker", "mqtt://127.0.0.1:1883", "-o", huntPath], user: "alice")
        #expect(created.status == 0, "\(created.stderr)")
        var passwordLines: [String: String] = [:]
        for name in ["Möwen", "Die Eulen", "Équipe 3", "東京", "Red"] {
            let added = try organiser.chest(["hunt", "team", "add", name, "--hunt", huntPath], user: "alice")
            #expect(added.status == 0, "\(name): \(added.stderr)")
            passwordLines[name] = added.stdout.split(separator: "\n").first { $0.hasPrefix("broker: ") }.map {
                String($0.dropFirst("broker: ".count))
            }
        }
        // "É" as a terminal may hand it over, E and a combining acute: the same name, in NFC.
        let again = try organiser.chest(["hunt", "team", "add", "E\u{301}quipe 3", "--hunt", huntPath], user: "alice")
        #expect(again.status != 0 && again.stderr.contains("already has a team Équipe 3"), "\(again)")
        let before = try Data(contentsOf: URL(fileURLWithPath: huntPath))

        let refused = try organiser.chest(["hunt", "team", "add", Self.imitation, "--hunt", huntPath], user: "alice")
        #expect(refused.status != 0)
        #expect(
            refused.stderr.contains(#""R\u{435}d" reads as "Red", a team of \#(huntPath)"#)
                && refused.stderr.contains("confusable"), "\(refused.stderr)")
        // An imitation of a name in another script, and of the organiser, are refused too; nothing is written.
        let owl = try organiser.chest(["hunt", "team", "add", "Die Eu\u{4CF}en", "--hunt", huntPath], user: "alice")
        #expect(owl.status != 0 && owl.stderr.contains(#"reads as "Die Eulen""#), "\(owl.stderr)")
        let boss = try organiser.chest(["hunt", "team", "add", "\u{43E}rganiser", "--hunt", huntPath], user: "alice")
        #expect(boss.status != 0 && boss.stderr.contains(#"reads as "organiser", a name no team can have"#))
        #expect(try Data(contentsOf: URL(fileURLWithPath: huntPath)) == before, "a refused name changes nothing")
        for bad in ["Eulen!", " Die Eulen", "Möwen🐦"] {
            let outcome = try organiser.chest(["hunt", "team", "add", bad, "--hunt", huntPath], user: "alice")
            #expect(outcome.status == 64 && outcome.stderr.contains("letters (of any script)"), "\(outcome)")
        }

        // --count: PREFIX-1 … PREFIX-N in any script, each checked against the teams there are.
        let numbered = try organiser.chest(
            ["hunt", "team", "add", "Équipe", "--count", "2", "--hunt", huntPath], user: "alice")
        #expect(numbered.status == 0, "\(numbered.stderr)")
        let numberedFile = try Data(contentsOf: URL(fileURLWithPath: huntPath))
        let many = try organiser.chest(
            ["hunt", "team", "add", "\u{C9}quip\u{435}", "--count", "2", "--hunt", huntPath], user: "alice")
        #expect(many.status != 0 && many.stderr.contains(#"reads as "Équipe-1""#), "\(many.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: huntPath)) == numberedFile)

        let hunt = try HuntFile.read(path: huntPath)
        #expect(
            Set(hunt.teams.map(\.name.rawValue)) == [
                "Möwen", "Die Eulen", "Équipe 3", "東京", "Red", "Équipe-1", "Équipe-2",
            ])
        #expect(
            hunt.teams.allSatisfy { Array($0.name.rawValue.utf8) == Array($0.name.rawValue.canonicallyComposed.utf8) })

        // The printed line, run as printed (to a password file of the test's), gives mosquitto_passwd the name as
        // one word: the file's user is the name.
        let passwords = organiser.root + "/hunt.passwd"
        for (index, name) in ["Die Eulen", "東京"].enumerated() {
            let line = try #require(passwordLines[name])
            let command = line.replacingOccurrences(of: "/etc/mosquitto/hunt.passwd", with: passwords)
                .replacingOccurrences(
                    of: "mosquitto_passwd -b", with: "/usr/bin/mosquitto_passwd \(index == 0 ? "-c " : "")-b")
            let ran = try Subprocess.run("/bin/sh", ["-c", command], environment: ProcessInfo.processInfo.environment)
            #expect(ran.status == 0, "\(command): \(ran.stderr)")
        }
        let users = try String(contentsOfFile: passwords, encoding: .utf8).split(separator: "\n").map {
            String($0.prefix { $0 != ":" })
        }
        #expect(users == ["Die Eulen", "東京"], "\(users)")
    }

    @Test func aTeamNamedInItsLanguagePlaysOnABrokerWithTheHuntACLAndTheBoardsShowIt() throws {
        // The broker as docs/HUNTS.md "Broker" sets it up; its password file gets the teams once `team add` has made
        // their passwords, and the broker is restarted.
        let acl = try HuntACLBroker()
        let broker = acl.broker
        defer { broker.stop() }
        let world = try HuntWorld(teams: ["Die Eulen", "Möwen"], broker: broker)
        let file = try HuntFile.read(path: world.huntPath)
        try acl.admit(file)

        let owls = world.teams[0]
        let gift = try world.compose("gift", ["--lock", "time=2020-01-01T00:00:00Z"])
        try world.give(gift, to: owls)
        let board = try WebBoard(world.organiserWorld, ["board", world.huntPath, "--http", "127.0.0.1:0", "--json"])
        defer { board.stop() }
        try owls.startConnected()
        try world.teams[1].startConnected()
        try world.organiserWorld.waitUntil("the board credits Die Eulen", timeout: 90) {
            board.events.contains { $0["event"]?.string == "unlock" && $0["team"]?.string == "Die Eulen" }
        }
        try world.organiserWorld.waitUntil("the board hears Möwen online", timeout: 30) {
            board.events.contains { $0["team"]?.string == "Möwen" && $0["online"]?.bool == true }
        }
        #expect(!board.events.contains { $0["event"]?.string == "refused" }, "\(board.events)")
        // The team's topics are below its name as written: hunt.acl's %u pattern let the team write there.
        let id = file.id
        let organiserPassword = try #require(file.organiserPassword)
        let watcher = try broker.subscriber(
            ["chest/\(id)/+/receipt/+", "chest/\(id)/+/status"], username: HuntFile.organiserUser,
            password: organiserPassword)
        defer { watcher.terminate() }
        try world.organiserWorld.waitUntil("the organiser reads Die Eulen's receipt", timeout: 20) {
            watcher.outputText.contains("chest/\(id)/Die Eulen/receipt/")
        }

        // The web board's JSON and page.
        let json = try WebClient.request(port: board.port, path: "/board.json")
        let document = try JSON(json.body)
        let rows = try #require(document["teams"]?.array)
        #expect(rows.first?["team"]?.string == "Die Eulen" && rows.first?["pages"]?.int == 1, "\(rows)")
        #expect(Set(rows.compactMap { $0["team"]?.string }) == ["Die Eulen", "Möwen"], "\(rows)")
        let page = try WebClient.request(port: board.port, path: "/")
        #expect(page.body.contains(#"data-team="Die Eulen""#) && page.body.contains("Möwen"), "\(page.body)")
        let results = try WebClient.request(port: board.port, path: "/results")
        #expect(results.body.contains("Die Eulen") && results.body.contains("Möwen"))

        // The terminal's table, its columns lined up past the names.
        let once = try world.organiser(["board", world.huntPath, "--once", "--timeout", "5"])
        #expect(once.status == 0, "\(once.stderr)")
        let lines = once.stdout.split(separator: "\n").map(String.init)
        let owlsRow = try #require(lines.first { $0.contains("Die Eulen") }, "\(once.stdout)")
        let gullsRow = try #require(lines.first { $0.contains("Möwen") }, "\(once.stdout)")
        #expect(owlsRow.hasPrefix("1  Die Eulen  0       1  "), "\(once.stdout)")
        let header = try #require(lines.first)
        let points = try #require(header.range(of: "POINTS")).lowerBound.utf16Offset(in: header)
        for row in [owlsRow, gullsRow] {
            let cells = Array(row.unicodeScalars)
            #expect(cells[points - 1] == " " && cells[points] != " ", "\(once.stdout)")
        }

        // And only there: Möwen cannot write below "Die Eulen". Its second message, to its own topic, is sent once
        // the broker has acknowledged the first, so when the second arrives the first would have.
        let gulls = try #require(file.team(named: TeamName("Möwen")!))
        try broker.publish("chest/\(id)/Die Eulen/status", "forged", username: "Möwen", password: gulls.password)
        try broker.publish("chest/\(id)/Möwen/status", "marker", username: "Möwen", password: gulls.password)
        try world.organiserWorld.waitUntil("the organiser reads Möwen's marker", timeout: 20) {
            watcher.outputText.contains("chest/\(id)/Möwen/status marker")
        }
        #expect(!watcher.outputText.contains("forged"), "\(watcher.outputText)")

        // The team's own chestd and `chest status` show its name.
        #expect(try owls.hunt()["team"]?.string == "Die Eulen")
        #expect(try owls.world.chest(["status"]).stdout.contains("as team Die Eulen on"))
    }
}
