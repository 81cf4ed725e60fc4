import ChestCore
import ChestSimulator
import ChestTestSupport
import Foundation
import Testing

/// "Walked" on the board is the length of the team's track (issue 59 item 3, docs/HUNTS.md "Distance walked"): a
/// team's chestd, fed a walk of 330 m by gpsfake through a real gpsd, says so in its statuses over a real Mosquitto,
/// and the web board's `/board.json` shows it, not the few metres between the fixes that confirmed its page.
@Suite(.realProcesses, .tags(.process, .gpsd, .mosquitto), .timeLimit(.minutes(5)))
struct HuntWalkedTests {
    static let start = Coordinate(latitude: 46.2044, longitude: 6.1432)
    /// 200 m north of the start, then 130 m east of that.
    static let corner = Coordinate(latitude: start.latitude + 200 / 111_195, longitude: start.longitude)
    static let end = Coordinate(
        latitude: corner.latitude, longitude: corner.longitude + 130 / (111_195 * cos(corner.latitude * .pi / 180)))

    @Test func aWalkOf330MetresShowsAsAbout330OnTheBoard() throws {
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        let hunt = try HuntWorld(teams: ["red"], broker: broker, sharePositions: true)
        let red = hunt.teams[0]
        #expect((329...331).contains(Self.start.distance(to: Self.corner) + Self.corner.distance(to: Self.end)))
        // A page at the end of the walk: the fixes that confirm it are all within a few metres of each other.
        let message = try hunt.compose("end", ["--lock", "location=\(Self.end.latitude),\(Self.end.longitude)/30m"])
        try hunt.give(message, to: red)
        let board = try WebBoard(hunt.organiserWorld, ["board", hunt.huntPath, "--http", "127.0.0.1:0", "--json"])
        defer { board.stop() }

        let walk = NMEAWalk(
            waypoints: [
                .init(Self.start, altitudeMSL: 400, hold: 20), .init(Self.corner, altitudeMSL: 400),
                .init(Self.end, altitudeMSL: 400, hold: 20),
            ], start: Date(), speed: 4)
        let fake = try GPSFake(walk: walk, delay: 0.02)
        defer { fake.stop() }
        red.world.gpsd = "127.0.0.1:\(fake.port)"
        try red.startConnected()
        try red.world.waitUntil("red's page opens", timeout: 90) { try red.world.states()["end"] == "open" }
        #expect(fake.waitForExit(timeout: 90) == 0, "\(fake.output)")

        func row() throws -> JSON? {
            let json = try WebClient.request(port: board.port, path: "/board.json")
            return try JSON(json.body)["teams"]?.array?.first { $0["team"]?.string == "red" }
        }
        // Counted in steps longer than the fixes' scatter: at most a step short at the end.
        try red.world.waitUntil("the board shows red walked about 330 m", timeout: 30) {
            (try row()?["walked"]?.int).map { (290...345).contains($0) } ?? false
        }
        let shown = try #require(try row())
        #expect(shown["pages"]?.int == 1, "\(shown)")
        let results = try hunt.organiser(["board", hunt.huntPath, "--results"])
        #expect(results.status == 0, "\(results.stderr)")
        #expect(
            results.stdout.contains("walked \(shown["walked"]?.int ?? 0) m"), "\(results.stdout)")
    }
}
