import ChestCore
import ChestIO
import ChestTestSupport
import Foundation
import Testing

/// The hunt's start key over a real Mosquitto broker with real chestd (docs/HUNTS.md "The start key"): a page of a
/// hunt with a start opens nowhere before the organiser publishes the key, however far past the start a team's clock
/// is, and opens once `chest hunt start` or the board publishes it.
@Suite(.realProcesses, .tags(.process, .mosquitto), .serialized, .timeLimit(.minutes(5)))
struct HuntStartTests {
    /// `read --json`; empty while the message is not in the chest yet.
    static func readJSON(_ team: HuntWorld.Team, _ id: String) throws -> JSON {
        let outcome = try team.world.chest(["read", id, "--json"])
        return JSON.object(outcome.stdout) ?? [:]
    }

    @Test func aClockPastTheStartOpensNothingUntilChestHuntStartPublishesTheKey() throws {
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        let hunt = try HuntWorld(teams: ["red"], broker: broker)
        let red = hunt.teams[0]
        try red.startConnected()
        // The hunt started a minute ago by every clock: only its key is missing.
        let past = ISO8601.string(Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down) - 60))
        #expect(try hunt.organiser(["hunt", "schedule", "--hunt", hunt.huntPath, "--starts", past]).status == 0)
        try red.world.waitUntil("red hears the start", timeout: 20) { try red.hunt()["starts"]?.string == past }
        let welcome = try hunt.compose("welcome", [])
        let held = try hunt.compose("held", ["--lock", "time=2020-01-01T00:00:00Z"])
        let file = try HuntFile.read(path: hunt.huntPath)
        #expect(file.releases?[.start] != nil, "compose made the start key and kept it in the organiser's file")
        let message = try MessageFile.decode(Data(contentsOf: URL(fileURLWithPath: held)))
        #expect(message.version == MessageFile.startVersion)
        try hunt.give(welcome, to: red)
        try hunt.give(held, to: red)
        let (welcomeID, heldID) = (try #require(hunt.ids["welcome"]), try #require(hunt.ids["held"]))
        try red.world.waitUntil("red has both pages, waiting for the start key", timeout: 30) {
            try Self.readJSON(red, heldID)["awaitsStartKey"]?.bool == true
                && Self.readJSON(red, welcomeID)["awaitsStartKey"]?.bool == true
        }
        #expect(try red.world.states()["welcome"] == "locked" && red.world.states()["held"] == "locked")
        let read = try red.world.chest(["read", heldID])
        #expect(read.stdout.contains("the organiser publishes the start key"), "\(read.stdout)")
        let started = try hunt.organiser(["hunt", "start", "--hunt", hunt.huntPath])
        #expect(started.status == 0 && started.stdout.contains("started the hunt"), "\(started.stderr)")
        try red.world.waitUntil("both pages open once the key arrives", timeout: 60) {
            try red.world.states()["welcome"] == "open" && red.world.states()["held"] == "open"
        }
        #expect(try red.world.chest(["read", heldID]).stdout.contains("page of held"))
        // Kept by the chest: after a restart without the broker the pages stay readable.
        broker.kill()
        red.world.stopDaemon()
        try red.world.startDaemon()
        #expect(try red.world.chest(["read", welcomeID]).stdout.contains("page of welcome"))
    }

    @Test func theBoardPublishesTheStartKeyAtTheStartInForce() throws {
        let broker = try MosquittoBroker.start()
        defer { broker.stop() }
        let hunt = try HuntWorld(teams: ["red"], broker: broker)
        let red = hunt.teams[0]
        let starts = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 15).rounded(.down))
        #expect(
            try hunt.organiser(["hunt", "schedule", "--hunt", hunt.huntPath, "--starts", ISO8601.string(starts)]).status
                == 0)
        let message = try hunt.compose("opening", [])
        let board = try hunt.startBoard()
        defer { hunt.stopBoard(board) }
        try red.world.startDaemon()
        try hunt.give(message, to: red)
        let id = try #require(hunt.ids["opening"])
        try red.world.waitUntil("red has the page", timeout: 30) { try red.world.states()["opening"] == "locked" }
        try red.world.waitUntil("the page opens after the board publishes the key at the start", timeout: 90) {
            try red.world.states()["opening"] == "open"
        }
        let opened = try Self.readJSON(red, id)
        let openedAt = try #require(
            ((opened["pages"]?.array)?.first?["openedAt"]?.string).flatMap { ISO8601.parse($0) })
        #expect(openedAt >= starts, "opened at \(openedAt), the hunt starts at \(starts)")
    }
}
