import ChestCore
import ChestIO
import ChestTestSupport
import Foundation
import Testing

/// The hunt's start key over a real Mosquitto broker with real chestd (docs/HUNTS.md "The start key"): a page of a
/// hunt with a start opens nowhere before the organiser publishes the key, however far past the start a team's clock
/// is, and opens once `chest hunt start` publishes it. The board's publishing it at the start by its clock needs no
/// broker to be shown: Tests/ChestCLITests/BoardLoopTests.swift, on the same envelope (`HuntEnvelope.startKey`).
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
}
