import ChestCore
import Foundation
import Testing

@testable import ChestDaemon

/// gpsd's lines reach the engine through the loop's own reading of a connection (docs/ARCHITECTURE.md "The path of
/// one fix"), and a location lock opens on them with its state on disk.
@Suite(.timeLimit(.minutes(5)))
struct GPSLineTests {
    @Test func fixesReadFromTheConnectionOpenALocationLock() throws {
        let harness = try DaemonHarness()
        let id = try DaemonFixture.dropLocationMessage(harness)
        try harness.start()
        try harness.turn(until: "the message is taken in") { harness.daemon.engine.entries[id] != nil }
        try harness.connectGPS()
        try harness.walk(to: DaemonFixture.far, fixes: 3)
        try harness.turn(until: "the fixes are read") {
            harness.lastFix(isAt: DaemonFixture.far)
        }
        #expect(harness.openPages(id).isEmpty, "far from the lock")
        try harness.walk(to: DaemonFixture.target)
        try harness.turn(until: "the page opens") { !harness.openPages(id).isEmpty }
        #expect(harness.daemon.store.savedState(id)?.openPages.count == 1)
    }
}
