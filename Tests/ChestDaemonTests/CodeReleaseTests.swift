import ChestCore
import ChestGPS
import Foundation
import Testing

@testable import ChestDaemon

/// When chestd hands back the code rare work ran (docs/BENCHMARKS.md "Memory"): a few seconds after the work, and
/// half a second after gpsd goes, since nothing that follows a loss is worth waiting for.
@Suite(.timeLimit(.minutes(5)))
struct CodeReleaseTests {
    @Test func aGpsdLossBringsTheReleaseForwardToHalfASecond() throws {
        let harness = try DaemonHarness()
        try harness.start()
        // Start-up's release, a second after start, has fired once the clock has passed it.
        harness.advance(by: 2)
        try harness.turn(until: "start-up's release has fired") { harness.daemon.codeReleaseDue == nil }

        harness.daemon.releaseCodeSoon()
        let rare = try #require(harness.daemon.codeReleaseDue)
        #expect(abs(rare - harness.clock.now().wall.timeIntervalSince1970 - Daemon.codeReleaseDelay) < 0.01)

        harness.daemon.sink.yield(.gps(.disconnected(server: DaemonHarness.gpsServer, reason: "gpsd closed it")))
        try harness.turn(until: "the loss brings the release forward") { harness.daemon.codeReleaseDue != rare }
        let due = try #require(harness.daemon.codeReleaseDue)
        #expect(abs(due - harness.clock.now().wall.timeIntervalSince1970 - Daemon.releaseAfterGPSDLoss) < 0.01)
        #expect(harness.daemon.codeReleasePagesOutData, "no fix comes after the loss to read the constants again")

        // A later rare event does not push it back.
        harness.daemon.releaseCodeSoon()
        #expect(harness.daemon.codeReleaseDue == due)
        harness.advance(by: 1)
        try harness.turn(until: "the release fires") { harness.daemon.codeReleaseDue == nil }
        #expect(!harness.daemon.codeReleasePagesOutData)
    }
}
