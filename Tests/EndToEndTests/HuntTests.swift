import ChestCore
import ChestIO
import ChestSeal
import ChestSimulator
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// Hunts over a real Mosquitto broker (docs/HUNTS.md): teams' chestd publish signed receipts, the organiser's board
/// follows them, releases open pages on every team; outages of the broker and of a team lose nothing, and forged
/// messages are refused.
@Suite(.realProcesses, .tags(.process, .gpsd, .mosquitto), .timeLimit(.minutes(5)))
struct HuntTests {
    static let start = Coordinate(latitude: 46.2044, longitude: 6.1432)

    /// The three spots of the walk, 300 m apart going north, where each team's page waits.
    static func spot(_ index: Int) -> Coordinate {
        Coordinate(latitude: start.latitude + 300 * Double(index + 1) / 111_195, longitude: start.longitude)
    }

    @Test func threeTeamsUnlockTheBoardShowsThemInOrderAndAReleaseOpensAPageOnEveryTeam() throws {
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        let hunt = try HuntWorld(teams: ["red", "blue", "green"], broker: broker)
        let owntracks = try hunt.subscribe("owntracks/+/+/event", count: 3)
        defer {
            owntracks.process.terminate()
        }
        let board = try hunt.startBoard()
        defer { hunt.stopBoard(board) }

        // One receiver for everyone, walking past each team's spot in turn: red's first, then blue's, then green's.
        var waypoints: [NMEAWalk.Waypoint] = [.init(Self.start, altitudeMSL: 400, hold: 25)]
        for (index, team) in hunt.teams.enumerated() {
            let message = try hunt.compose(
                team.name, ["--lock", "location=\(Self.spot(index).latitude),\(Self.spot(index).longitude)/40m"])
            try hunt.give(message, to: team)
            waypoints.append(.init(Self.spot(index), altitudeMSL: 400, hold: 8))
        }
        let fake = try GPSFake(walk: NMEAWalk(waypoints: waypoints, start: Date(), speed: 40), delay: 0.04)
        defer { fake.stop() }
        for team in hunt.teams {
            team.world.gpsd = "127.0.0.1:\(fake.port)"
            try team.world.startDaemon()
        }
        try hunt.teams[0].world.waitUntil("the board shows three unlocks", timeout: 90) {
            hunt.boardEvents(board).count { $0["event"]?.string == "unlock" } == 3
        }
        let unlocks = hunt.boardEvents(board).filter { $0["event"]?.string == "unlock" }
        #expect(unlocks.map { $0["team"]?.string } == ["red", "blue", "green"])
        #expect(
            unlocks.allSatisfy { $0["trust"]?.string == "simulated" && $0["page"]?.int == 1 },
            "\(unlocks)\n\(hunt.teams.map { $0.world.daemonLog }.joined(separator: "\n"))")
        #expect(hunt.boardEvents(board).count { $0["event"]?.string == "refused" } == 0)
        // The leaderboard: one page each, in the order they got there.
        let first = try hunt.organiser(["board", hunt.huntPath, "--once"])
        #expect(first.status == 0, "\(first.stderr)")
        let ranked = first.stdout.split(separator: "\n").dropFirst().map {
            $0.split(separator: " ", omittingEmptySubsequences: true)
        }
        #expect(ranked.map { String($0[1]) } == ["red", "blue", "green"], "\(first.stdout)")
        #expect(ranked.allSatisfy { $0[2] == "1" }, "\(first.stdout)")

        // OwnTracks' tools see each unlock as a transition, on their own topic.
        let transitions = try hunt.received(owntracks, count: 3)
        #expect(transitions.count == 3, "\(transitions)")
        #expect(
            transitions.allSatisfy { $0.contains("\"_type\":\"transition\"") && $0.contains("\"event\":\"enter\"") })

        // Page text never leaves the reader's machine; positions stay home unless the hunt shares them.
        let everything = hunt.boardJournal
        #expect(!everything.contains(Data("page of red".utf8).base64EncodedString()))
        for index in 0..<3 { #expect(!hunt.brokerDump().contains(String(format: "%.4f", Self.spot(index).latitude))) }

        // A page sealed under a release: locked everywhere until the organiser releases it, then open everywhere.
        let finale = try hunt.compose("finale", ["--lock", "release=finale", "--hunt", hunt.huntPath])
        for team in hunt.teams { try hunt.give(finale, to: team) }
        let finaleID = try #require(hunt.ids["finale"])
        for team in hunt.teams {
            try team.world.waitUntil("\(team.name) has the finale", timeout: 20) {
                try team.world.states()["finale"] == "locked"
            }
            #expect(try team.world.chest(["read", finaleID]).stdout.contains("not released yet"))
        }
        let released = try hunt.organiser(["hunt", "release", "finale", "--hunt", hunt.huntPath])
        #expect(released.status == 0, "\(released.stderr)")
        for team in hunt.teams {
            try team.world.waitUntil("the finale opens for \(team.name)", timeout: 30) {
                try team.world.states()["finale"] == "open"
            }
            #expect(try team.world.chest(["read", finaleID]).stdout.contains("page of finale"))
        }
        try hunt.teams[0].world.waitUntil("the board shows six unlocks", timeout: 30) {
            hunt.boardEvents(board).count { $0["event"]?.string == "unlock" } == 6
        }

        let once = try hunt.organiser(["board", hunt.huntPath, "--once"])
        let rows = once.stdout.split(separator: "\n").dropFirst().map {
            $0.split(separator: " ", omittingEmptySubsequences: true)
        }
        #expect(
            Set(rows.map { String($0[1]) }) == ["red", "blue", "green"] && rows.allSatisfy { $0[2] == "2" },
            "\(once.stdout)")
    }

    @Test func aTeamOfflineDuringItsUnlocksPublishesThemAllOnceAfterTheBrokerComesBack() throws {
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        let hunt = try HuntWorld(teams: ["red"], broker: broker)
        let red = hunt.teams[0]
        let board = try hunt.startBoard()
        defer { hunt.stopBoard(board) }
        try red.world.startDaemon()
        try red.world.waitUntil("red is online", timeout: 20) {
            hunt.boardEvents(board).contains { $0["online"]?.bool == true }
        }

        // The broker dies; red unlocks three pages while it is away, and chestd itself is killed once meanwhile.
        broker.kill()
        for index in 0..<3 {
            try hunt.give(try hunt.compose("past \(index)", ["--lock", "time=2020-01-01T00:00:00Z"]), to: red)
        }
        try red.world.waitUntil("three pages open", timeout: 20) {
            try red.world.states().values.filter { $0 == "open" }.count == 3
        }
        try red.world.waitUntil("the outbox holds them", timeout: 10) { try red.hunt()["outbox"]?.int ?? 0 >= 3 }
        red.world.stopDaemon(SIGKILL)
        try red.world.startDaemon()
        #expect(try red.hunt()["outbox"]?.int ?? 0 >= 3)
        try broker.restart()
        try red.world.waitUntil("the outbox empties", timeout: 40) { try red.hunt()["outbox"]?.int == 0 }
        try red.world.waitUntil("the board has all three", timeout: 30) {
            hunt.boardEvents(board).count { $0["event"]?.string == "unlock" } == 3
        }
        // Once each, even after a restart of the board (its journal) and with the retained receipts sent again.
        hunt.stopBoard(board)
        let subscriptions = try hunt.boardSubscriptions()
        let again = try hunt.startBoard()
        defer { hunt.stopBoard(again) }
        try red.world.waitUntil("the restarted board replays its journal", timeout: 20) {
            hunt.boardEvents(again).count { $0["event"]?.string == "unlock" } == 3
        }
        // The broker sends the retained receipts as it accepts the subscription; a message the board refuses,
        // sent after that, arrives after them.
        try red.world.waitUntil("the restarted board subscribes", timeout: 20) {
            try hunt.boardSubscriptions() > subscriptions
        }
        let id = try HuntFile.read(path: hunt.huntPath).id
        try broker.publish("chest/\(id)/red/status", "not a hunt message")
        try red.world.waitUntil("the board refuses the marker", timeout: 20) {
            hunt.boardEvents(again).contains { $0["event"]?.string == "refused" }
        }
        let titles = hunt.boardEvents(again).filter { $0["event"]?.string == "unlock" }.compactMap {
            $0["title"]?.string
        }
        #expect(titles.sorted() == ["past 0", "past 1", "past 2"])
        let refused = hunt.boardEvents(again).filter { $0["event"]?.string == "refused" }
        #expect(refused.count == 1 && refused.first?["reason"]?.string == "malformed", "\(refused)")
    }

    @Test func aReceiptOwedByAChestdKilledAsThePageOpenedIsSentAtTheNextStart() throws {
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        let hunt = try HuntWorld(teams: ["red"], broker: broker)
        let red = hunt.teams[0]
        let board = try hunt.startBoard()
        defer { hunt.stopBoard(board) }
        // The page opens while the broker is away; then chestd is killed, and the chest is left as a kill between
        // saving the page open and queueing its receipt would leave it: the page open, no receipt anywhere.
        broker.kill()
        try red.world.startDaemon()
        try hunt.give(try hunt.compose("crash", ["--lock", "time=2020-01-01T00:00:00Z"]), to: red)
        try red.world.waitUntil("the page opens", timeout: 20) { try red.world.states()["crash"] == "open" }
        red.world.stopDaemon(SIGKILL)
        let outbox = red.world.chest + "/outbox"
        for name in try FileManager.default.contentsOfDirectory(atPath: outbox) where name.hasSuffix(".json") {
            try FileManager.default.removeItem(atPath: outbox + "/" + name)
        }
        let ledger = red.world.chest + "/hunt-receipts.json"
        var saved = try JSON(Data(contentsOf: URL(fileURLWithPath: ledger)))
        #expect((saved["sent"]?.strings)?.count == 1)
        saved["sent"] = []
        try saved.data.write(to: URL(fileURLWithPath: ledger))
        try broker.restart()
        try red.world.startDaemon()
        try red.world.waitUntil("the board hears of it", timeout: 30) {
            hunt.boardEvents(board).contains { $0["event"]?.string == "unlock" && $0["title"]?.string == "crash" }
        }
        #expect(red.world.daemonLog.contains("was never sent; sending it now"))
    }

    @Test func forgedReceiptsAndAReleaseSignedByAnotherKeyAreRefused() throws {
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        let hunt = try HuntWorld(teams: ["red"], broker: broker)
        let red = hunt.teams[0]
        let finale = try hunt.compose("finale", ["--lock", "release=finale", "--hunt", hunt.huntPath])
        try hunt.give(finale, to: red)
        try red.world.startDaemon()
        let board = try hunt.startBoard()
        defer { hunt.stopBoard(board) }
        try red.world.waitUntil("red is online with the finale", timeout: 20) {
            try red.hunt()["connected"]?.bool == true && red.world.states()["finale"] == "locked"
        }

        let file = try HuntFile.read(path: hunt.huntPath)
        let team = try #require(file.team(named: TeamName("red")!))
        let teamKey = [UInt8](try #require(Data(base64Encoded: team.secretKey ?? "")))
        let receipt = UnlockReceipt(
            message: MessageID(bytes: [UInt8](repeating: 9, count: 16)), messageSignature: "", title: "forged",
            page: 1, set: .a, openedAt: Date(),
            evidence: UnlockEvidence(
                locks: [.location], fixes: [], source: nil,
                trust: FixTrust(level: .hardware), gpsTime: nil, systemTime: Date(), clock: "system"),
            reader: "")
        let mallory = try Identity.loadOrCreate(at: red.world.root + "/mallory.json")
        // Signed by a key the hunt does not know for red.
        let stranger = HuntSigner.sign(
            HuntEnvelope(
                hunt: file.id, sender: "red", id: 900, sent: Date(),
                receipt: ReceiptSigner.sign(receipt, with: mallory)), with: mallory)
        try hunt.publish(HuntTopic.receipt(hunt: file.id, team: "red", id: 900), stranger.bytes)
        // Signed by red's key, but the receipt inside was changed after the reader signed it.
        var edited = ReceiptSigner.sign(receipt, with: mallory)
        edited.title = "edited"
        let tampered = HuntSigner.sign(
            HuntEnvelope(hunt: file.id, sender: "red", id: 901, sent: Date(), receipt: edited),
            secretKey: teamKey)
        try hunt.publish(HuntTopic.receipt(hunt: file.id, team: "red", id: 901), tampered.bytes)
        // A release with the right name, signed by Mallory, not the organiser.
        let fake = HuntSigner.sign(
            HuntEnvelope(
                hunt: file.id, id: 1, sent: Date(),
                release: HuntRelease(name: "finale", key: HuntSigner.newReleaseKey())), with: mallory)
        try hunt.publish(HuntTopic.release(hunt: file.id, name: "finale"), fake.bytes, retain: true)

        try red.world.waitUntil("the board refuses both", timeout: 20) {
            let events = hunt.boardEvents(board)
            return events.contains { $0["reason"]?.string == "unknownKey" }
                && events.contains { ($0["why"]?.string)?.contains("signature does not match") == true }
        }
        #expect(!hunt.boardEvents(board).contains { $0["event"]?.string == "unlock" })
        try red.world.waitUntil("red ignores the release", timeout: 20) {
            (try red.hunt()["ignored"])?["unknownKey"] == 1
        }
        #expect(try red.world.states()["finale"] == "locked")
        let status = try red.world.chest(["status"])
        #expect(status.stdout.contains("unknownKey"), "\(status.stdout)")
    }

    @Test func mistakesGetAClearErrorAndChangeNothing() throws {
        let world = ChestHarness()
        func chest(_ arguments: [String]) throws -> Subprocess.Outcome { try world.chest(arguments, user: "alice") }
        let noBroker = try chest(["hunt", "create", "Spring"])
        #expect(noBroker.status == 64 && noBroker.stderr.contains("needs --broker URL"), "\(noBroker.stderr)")
        #expect(
            try chest(["hunt", "create", "Spring", "--broker", "http://x"]).stderr.contains(
                "write mqtt://HOST:PORT or mqtts://HOST:PORT"))
        #expect(
            try chest(["hunt", "create", "Spring", "--broker", "mqtt://127.0.0.1:1883", "-o", "s.hunt"]).status == 0)
        #expect(
            try chest(["hunt", "create", "Spring", "--broker", "mqtt://127.0.0.1:1883", "-o", "s.hunt"]).stderr
                .contains("s.hunt exists"))
        for name in ["organiser", "release", "a/b", "+", String(repeating: "x", count: 33)] {
            let bad = try chest(["hunt", "team", "add", name, "--hunt", "s.hunt"])
            #expect(bad.status == 64 && bad.stderr.contains("cannot name a team"), "\(name): \(bad.stderr)")
        }
        #expect(try chest(["hunt", "team", "add", "red", "--hunt", "s.hunt"]).status == 0)
        #expect(
            try chest(["hunt", "team", "add", "red", "--hunt", "s.hunt"]).stderr.contains("already has a team red"))
        #expect(try chest(["hunt", "join", "s.hunt"]).stderr.contains("is the organiser's hunt file"))
        #expect(try chest(["board", "s-red.hunt", "--once"]).stderr.contains("is a team's join file"))
        #expect(try chest(["hunt", "release", "finale", "--hunt", "s.hunt"]).stderr.contains("has no release finale"))
        // A join file carries neither the organiser's password nor release keys nor another team's secret.
        let join = try String(contentsOfFile: world.root + "/s-red.hunt", encoding: .utf8)
        #expect(!join.contains("organiserPassword") && !join.contains("releases"))
        #expect(try HuntFile.read(path: world.root + "/s-red.hunt").teams.count == 1)
        // Release locks: format 2 only, with the hunt file, and the only secret of their set.
        let compose = [
            "compose", "--seal-cost", "interactive", "-o", "m.locked", "--title", "t", "--page", "p", "--lock",
            "release=finale",
        ]
        #expect(try chest(compose).stderr.contains("needs --hunt FILE"))
        #expect(try chest(compose + ["--hunt", "s.hunt", "--format", "1"]).stderr.contains("needs format 2"))
        #expect(
            try chest(compose + ["--hunt", "s.hunt", "--lock", "pin=1234"]).stderr.contains(
                "the only secret of its set"))
        #expect(try chest(compose + ["--hunt", "s-red.hunt"]).stderr.contains("is a team's join file"))
        #expect(!FileManager.default.fileExists(atPath: world.root + "/m.locked"))
        #expect(
            try HuntFile.read(path: world.root + "/s.hunt").releases == nil, "nothing was added by the refused attempts"
        )
        let made = try chest(compose + ["--hunt", "s.hunt", "--or", "--lock", "pin=1234"])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(try HuntFile.read(path: world.root + "/s.hunt").releases?.keys.map(\.rawValue) == ["finale"])
        // The file names the release, never its key.
        let key = try #require(try HuntFile.read(path: world.root + "/s.hunt").releases?[ReleaseName("finale")!])
        #expect(!(try String(contentsOfFile: world.root + "/m.locked", encoding: .utf8)).contains(key.base64))
    }

    @Test func theBoardRedrawsInATerminalAndQuitsOnQ() throws {
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        let hunt = try HuntWorld(teams: ["red", "blue"], broker: broker)
        let red = hunt.teams[0]
        try red.world.startDaemon()
        let tmux = NavTests.Tmux(socket: hunt.organiserWorld.root + "/tmux.sock")
        let environment = hunt.organiserWorld.environment(user: "alice").flatMap { ["-e", "\($0.key)=\($0.value)"] }
        try tmux.run(
            ["new-session", "-d", "-s", "nav", "-x", "100", "-y", "24"] + environment
                + [ChestHarness.products + "/chest", "board", hunt.huntPath])
        defer { _ = try? tmux.run(["kill-server"]) }
        var screen = try tmux.waitFor("both teams, red online") {
            $0.contains("connected") && $0.contains("red") && $0.contains("online") && $0.contains("blue")
                && $0.contains("never")
        }
        try hunt.give(try hunt.compose("in tmux", ["--lock", "time=2020-01-01T00:00:00Z"]), to: red)
        screen = try tmux.waitFor("red's unlock") { $0.contains("red opened \u{201C}in tmux\u{201D} page 1") }
        #expect(screen.contains("in tmux p1"), "\(screen)")
        #expect(try tmux.quitsOnQ(), "the board did not quit on q")
    }

    @Test func overTLSWithPerTeamPasswords() throws {
        // The hunt's passwords are made by `hunt create` and `team add`; the broker learns them after.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hunt-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let authority = try TestCertificateAuthority(in: directory)
        let port = FreePort.onLoopback()
        let organiser = ChestHarness()
        let red = ChestHarness()
        let huntPath = organiser.root + "/tls.hunt"
        #expect(
            try organiser.chest(
                [
                    "hunt", "create", "TLS", "--broker", "mqtts://127.0.0.1:\(port)", "--ca", authority.caFile,
                    "-o", huntPath,
                ], user: "alice"
            ).status == 0)
        #expect(
            try organiser.chest(
                ["hunt", "team", "add", "red", "--hunt", huntPath, "-o", red.root + "/red.hunt"], user: "alice"
            ).status == 0)
        let file = try HuntFile.read(path: huntPath)
        let passwords = directory.appendingPathComponent("passwords").path
        try MosquittoBroker.writePasswordFile(
            [
                "red": try #require(file.team(named: TeamName("red")!)?.password),
                "organiser": try #require(file.organiserPassword),
            ], to: passwords)
        let broker = try MosquittoBroker(
            port: port, directory: directory,
            configuration: ([
                MosquittoBroker.runAsLine, "listener \(port) 127.0.0.1", "cafile \(authority.caFile)",
                "certfile \(authority.certificateFile)", "keyfile \(authority.keyFile)", "allow_anonymous false",
                "password_file \(passwords)",
            ] + MosquittoBroker.persistenceLines(directory)).joined(separator: "\n") + "\n", caFile: authority.caFile)
        defer { broker.stop() }
        #expect(try red.chest(["hunt", "join", red.root + "/red.hunt"]).status == 0)
        try red.startDaemon()
        try red.waitUntil("red connects over TLS", timeout: 20) {
            (try red.status()["hunt"])?["connected"]?.bool == true
        }
        let message = organiser.root + "/tls.locked"
        let composed = try organiser.chest(
            [
                "compose", "-o", message, "--title", "over TLS", "--page", "p",
                "--lock", "time=2020-01-01T00:00:00Z", "--hunt", huntPath,
            ], user: "alice")
        #expect(composed.status == 0, "\(composed.stderr)")
        try FileManager.default.copyItem(atPath: message, toPath: red.chest + "/tls.locked.part")
        try FileManager.default.moveItem(atPath: red.chest + "/tls.locked.part", toPath: red.chest + "/tls.locked")
        try red.waitUntil("the board hears it over TLS", timeout: 30) {
            let once = try organiser.chest(["board", huntPath, "--once", "--timeout", "5"], user: "alice")
            // Ranked, no points (a time lock's page is guarded), one page.
            return once.stdout.split(separator: "\n").contains {
                $0.split(separator: " ").prefix(4).map(String.init) == ["1", "red", "0", "1"]
            }
        }
    }

    @Test func teamsOnOneBrokerAndTheBoardOnABridgedOne() throws {
        let (main, edge) = try MosquittoBroker.bridged()
        defer {
            edge.stop()
            main.stop()
        }
        let hunt = try HuntWorld(teams: ["red"], broker: edge, boardBroker: main)
        let board = try hunt.startBoard()
        defer { hunt.stopBoard(board) }
        let red = hunt.teams[0]
        try red.world.startDaemon()
        try hunt.give(try hunt.compose("bridged", ["--lock", "time=2020-01-01T00:00:00Z"]), to: red)
        try red.world.waitUntil("the board on the other broker shows it", timeout: 30) {
            hunt.boardEvents(board).contains {
                $0["event"]?.string == "unlock" && $0["title"]?.string == "bridged"
            }
        }
    }
}

/// A hunt for a test: the organiser (alice, who also composes) and a world per team, each with its own chestd,
/// chest and config, joined to the hunt.
final class HuntWorld {
    /// The boards `stopBoard` has stopped and reaped.
    struct Team {
        let name: String
        let world: ChestHarness

        /// `status`'s hunt section.
        func hunt() throws -> JSON { try world.status()["hunt"] ?? [:] }

        /// Starts the team's chestd and waits until it is connected to the broker.
        func startConnected() throws {
            try world.startDaemon()
            try world.waitUntil("\(name) is connected", timeout: 20) { try hunt()["connected"]?.bool == true }
        }
    }

    let broker: MosquittoBroker
    let teams: [Team]
    let organiserWorld = ChestHarness()
    /// The ID of each message composed, by title.
    var ids: [String: String] = [:]
    var huntPath: String { organiserWorld.root + "/test.hunt" }
    var boardJournal: String { (try? String(contentsOfFile: huntPath + ".board", encoding: .utf8)) ?? "" }

    /// Creates the hunt on `broker` (or, for the board only, on `boardBroker`), sharing positions when asked, and
    /// joins each team.
    init(
        teams names: [String], broker: MosquittoBroker, boardBroker: MosquittoBroker? = nil,
        sharePositions: Bool = false
    ) throws {
        self.broker = broker
        teams = names.map { Team(name: $0, world: ChestHarness()) }
        let created = try organiser(
            ["hunt", "create", "Test hunt", "--broker", "mqtt://\(broker.host):\(broker.port)", "-o", huntPath]
                + (sharePositions ? ["--share-positions"] : []))
        guard created.status == 0 else { throw HuntTestFailure(created) }
        for team in teams {
            let join = team.world.root + "/join.hunt"
            let added = try organiser(["hunt", "team", "add", team.name, "--hunt", huntPath, "-o", join])
            guard added.status == 0 else { throw HuntTestFailure(added) }
            let joined = try team.world.chest(["hunt", "join", join])
            guard joined.status == 0 else { throw HuntTestFailure(joined) }
        }
        if let boardBroker {
            // The organiser's copy points at the other broker of the bridge; the teams' join files do not change.
            var file = try HuntFile.read(path: huntPath)
            file.broker = try #require(BrokerURL("mqtt://\(boardBroker.host):\(boardBroker.port)"))
            try file.write(to: huntPath)
        }
    }

    @discardableResult
    func organiser(_ arguments: [String]) throws -> Subprocess.Outcome {
        try organiserWorld.chest(arguments, user: "alice")
    }

    /// Composes a one-page message titled `title` whose page says "page of TITLE", for the hunt (its page keys in
    /// the organiser's hunt file, so the board can check proofs) unless `forHunt` is false; returns its path.
    func compose(_ title: String, _ locks: [String], forHunt: Bool = true) throws -> String {
        let path = organiserWorld.root + "/\(title.replacingOccurrences(of: " ", with: "-")).locked"
        let hunt = forHunt && !locks.contains("--hunt") ? ["--hunt", huntPath] : []
        let made = try organiser(
            ["compose", "--seal-cost", "interactive", "-o", path, "--title", title, "--page", "page of \(title)"]
                + locks + hunt)
        guard made.status == 0 else { throw HuntTestFailure(made) }
        ids[title] = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return path
    }

    /// Puts the message into the team's chest, through chestd when it runs.
    func give(_ path: String, to team: Team) throws {
        let destination = team.world.chest + "/" + URL(fileURLWithPath: path).lastPathComponent
        try FileManager.default.copyItem(atPath: path, toPath: destination + ".part")
        try FileManager.default.moveItem(atPath: destination + ".part", toPath: destination)
    }

    /// `chest board --json`, running.
    func startBoard() throws -> (process: TestProcess, output: String) {
        let output = organiserWorld.root + "/board-\(UUID().uuidString).jsonl"
        let process = try TestProcess(
            ChestHarness.products + "/chest", ["board", huntPath, "--json"],
            wholeEnvironment: organiserWorld.environment(user: "alice"), stdout: output,
            stderr: output + ".err")
        return (process, output)
    }

    /// Stops the board; a test that stops it itself also stops it again on its way out (`defer`), which
    /// `TestProcess` makes harmless: it sends nothing to a process it has reaped.
    func stopBoard(_ board: (process: TestProcess, output: String)) {
        board.process.terminate()
    }

    func boardEvents(_ board: (process: TestProcess, output: String)) -> [JSON] {
        let text = (try? String(contentsOfFile: board.output, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap {
            JSON.object($0)
        }
    }

    /// How many subscriptions to the whole hunt (`chest board`'s) the broker has logged.
    func boardSubscriptions() throws -> Int {
        let topic = HuntTopic.all(hunt: try HuntFile.read(path: huntPath).id)
        return broker.log.split(separator: "\n").count { $0.hasSuffix(" " + topic) }
    }

    /// `mosquitto_sub` on `topic`, running until it has `count` messages; returns once the broker has its subscription.
    func subscribe(_ topic: String, count: Int) throws -> (process: TestProcess, output: String) {
        let output = organiserWorld.root + "/sub-\(UUID().uuidString).txt"
        let client = "chest-test-\(UUID().uuidString.prefix(8))"
        let process = try TestProcess(
            "/usr/bin/mosquitto_sub",
            [
                "-h", broker.host, "-p", String(broker.port), "-t", topic,
                "-C", String(count), "-q", "1", "-i", client,
            ],
            wholeEnvironment: ProcessInfo.processInfo.environment, stdout: output, stderr: output + ".err")
        try organiserWorld.waitUntil("the broker has \(client)'s subscription", timeout: 10) {
            broker.log.contains("\(client) 1 \(topic)")
        }
        return (process, output)
    }

    func received(_ subscription: (process: TestProcess, output: String), count: Int) throws -> [String] {
        try organiserWorld.waitUntil("\(count) messages", timeout: 20) {
            ((try? String(contentsOfFile: subscription.output, encoding: .utf8)) ?? "").split(separator: "\n").count
                >= count
        }
        return ((try? String(contentsOfFile: subscription.output, encoding: .utf8)) ?? "").split(separator: "\n").map(
            String.init)
    }

    /// Publishes as an outsider would, with `mosquitto_pub`.
    func publish(_ topic: String, _ payload: Data, retain: Bool = false) throws {
        let file = organiserWorld.root + "/payload-\(UUID().uuidString)"
        try payload.write(to: URL(fileURLWithPath: file))
        let outcome = try Subprocess.run(
            "/usr/bin/mosquitto_pub",
            [
                "-h", broker.host, "-p", String(broker.port), "-t", topic,
                "-q", "1", "-f", file,
            ] + (retain ? ["-r"] : []),
            environment: ProcessInfo.processInfo.environment)
        guard outcome.status == 0 else { throw HuntTestFailure(outcome) }
    }

    /// Every retained message on the broker, as text.
    func brokerDump() -> String {
        (try? Subprocess.run(
            "/usr/bin/mosquitto_sub", ["-h", broker.host, "-p", String(broker.port), "-t", "#", "-W", "2", "-v"],
            environment: ProcessInfo.processInfo.environment
        ).stdout) ?? ""
    }
}

struct HuntTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }

    /// A command that failed: its status (128 + N when signal N killed it) and what it said, so that one that died
    /// silently still says how.
    init(_ outcome: Subprocess.Outcome) {
        description =
            "exit status \(outcome.status): "
            + (outcome.stderr.isEmpty ? "(nothing on stderr; stdout: \(outcome.stdout))" : outcome.stderr)
    }
}
