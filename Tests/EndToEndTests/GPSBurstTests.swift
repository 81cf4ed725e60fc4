import ChestCore
import ChestSimulator
import ChestTestSupport
import Foundation
import Testing

/// chestd reads gpsd in bursts: after a read the socket rests for a quarter of a second, and what came meanwhile is
/// read together at its end (`Daemon.gpsReadInterval`). A fast feed then costs fewer wake-ups than epochs, and no
/// report is lost.
@Suite(.realProcesses, .tags(.process, .gpsd), .timeLimit(.minutes(3)))
struct GPSBurstTests {
    let start = Date(timeIntervalSince1970: 1_780_304_400)  // 2026-06-01T09:00:00Z
    let a = Coordinate(latitude: 47.376900, longitude: 8.541700)
    let b = Coordinate(latitude: 47.377854, longitude: 8.543109)

    /// The loop's wake-ups so far: chestd's main thread's voluntary context switches (it sleeps only in poll(2)).
    func wakeUps(_ pid: pid_t) -> Int? {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/status", encoding: .utf8)) ?? ""
        return status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
            .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }
    }

    @Test func aFastFeedIsReadInBurstsAndEveryEpochReachesTheTrack() throws {
        // Five or six sentences an epoch at 10 ms a sentence: an epoch every 50–60 ms, each a TPV and a SKY.
        let walk = NMEAWalk(
            waypoints: [.init(a, altitudeMSL: 410, hold: 3), .init(b, altitudeMSL: 470, hold: 3)],
            start: start, speed: 2)
        let epochs = walk.epochs().filter(\.hasFix)
        #expect(epochs.count > 80)
        let world = ChestHarness()
        let fake = try GPSFake(walk: walk, delay: 0.01)
        defer { fake.stop() }
        world.gpsd = "127.0.0.1:\(fake.port)"
        try world.startDaemon()
        let pid = try #require(world.daemon)
        let before = try #require(wakeUps(pid))
        #expect(fake.waitForExit(timeout: 60) == 0, "\(fake.output.suffix(2_000))")
        let during = try #require(wakeUps(pid)) - before

        // Every epoch chestd read has its point written, in order, once the last burst's write is due. (gpsfake's feed
        // starts 1.4 s after its own watcher connects: a chestd slow to start on a busy machine misses the first few.)
        let expected = epochs.map { epoch in
            String(TrackLog.Point(time: epoch.time, coordinate: epoch.coordinate).line.split(separator: " ")[0])
        }
        var written: [String] = []
        try world.waitUntil("the last epoch is in track.txt", timeout: 15) {
            let text = (try? String(contentsOfFile: world.chest + "/track.txt", encoding: .utf8)) ?? ""
            written = text.split(separator: "\n").map { String($0.split(separator: " ")[0]) }
            return written.last == expected.last
        }
        #expect(written.count > expected.count / 2, "chestd read \(written.count) of \(expected.count) epochs")
        #expect(written == Array(expected.suffix(written.count)), "an epoch lost or out of order")
        // One wake-up a report would be two an epoch; a tenth of a second's rest made it about one every two epochs, a
        // quarter's one every four or five (docs/BENCHMARKS.md "The fix path's CPU"). Fewer than one an epoch is the
        // bound: the count is of voluntary context switches, and on a machine with a core busy the loop also waits
        // for locks and pages besides poll(2) (44 for 83 epochs once, in a fresh clone's `make test`).
        #expect(during < written.count, "\(during) wake-ups for \(written.count) epochs read")
        #expect(world.stopDaemon() == 0)
    }
}
