import ChestCore
import ChestTestSupport
import Foundation
import Testing

/// A receiver with one epoch every 5 s (a logger, a power-saving receiver): a real u-blox 8 log replayed by gpsfake
/// at a fifth of its pace into a real gpsd, and chestd judging its gaps against that cadence (docs/DESIGN.md "Lock
/// rules").
@Suite(.realProcesses, .tags(.process, .gpsd), .timeLimit(.minutes(5)))
struct SlowReceiverTests {
    /// ublox-8.log's NMEA from its first epoch on (the binary UBX before it dropped), `epochs` epochs of it, and how
    /// many sentences each epoch has on average: gpsfake's `-c` paces sentences, not epochs.
    static func ublox8(epochs: Int) throws -> (nmea: String, sentencesPerEpoch: Double) {
        let log = try #require(GPSLogs.entries().first { $0.name == "ublox-8.log" })
        let text = String(decoding: try Data(contentsOf: log.url), as: UTF8.self)
        var kept: [Substring] = []
        var seen = 0
        // CR LF is one Character to a String: split on any line end.
        for line in text.split(whereSeparator: \.isNewline) {
            guard let start = line.firstIndex(of: "$") else { continue }
            let sentence = line[start...]
            if sentence.hasPrefix("$GNRMC") { seen += 1 }
            if seen > epochs { break }
            if seen > 0 { kept.append(sentence) }
        }
        return (kept.joined(separator: "\r\n") + "\r\n", Double(kept.count) / Double(epochs))
    }

    /// The 30 m place the receiver sits in (ublox-8's fixes lie within 13 m of each other) opens within a minute of
    /// the first fix, where a gap of more than 5 s used to start the count again for ever; while it waits, `status`,
    /// `read` and `nav` say that fixes come every 5 s and how many of the 3 came.
    @Test func aPlaceOpensWithinAMinuteOnAReceiverAtOneEpochEvery5Seconds() throws {
        let world = ChestHarness()
        let log = try #require(GPSLogs.entries().first { $0.name == "ublox-8.log" })
        let centre = Coordinate(
            latitude: (log.latitudes.lowerBound + log.latitudes.upperBound) / 2,
            longitude: (log.longitudes.lowerBound + log.longitudes.upperBound) / 2)
        let alice = try MessageFactory(configDirectory: world.root + "/config-alice")
        let id = try alice.drop("place", [.location(center: centre, radius: 30)], into: world.chest)
        // 24 epochs: two minutes of feed at 0.2 Hz, more than the test waits for.
        let (nmea, perEpoch) = try Self.ublox8(epochs: 24)
        let fake = try GPSFake(nmea: nmea, delay: 5 / perEpoch)
        defer { fake.stop() }
        world.gpsd = "127.0.0.1:\(fake.port)"
        try world.startDaemon()
        try world.waitUntil("chestd's first fix", timeout: 60) {
            ((try world.status()["fix"])?["latitude"]?.double) != nil
        }
        let firstFix = Date()
        var said: [String] = []
        var opened = false
        try world.waitUntil("the place opens", timeout: 90) {
            let status = try world.chest(["status"]).stdout
            opened = status.contains(", 1 open,")
            if !opened {
                let read = try world.chest(["read", id]).stdout
                let nav = try world.chest(["nav", "--once"]).stdout
                said += [status, read, nav].flatMap { $0.split(separator: "\n").map(String.init) }
                    .filter { $0.contains("confirming") }
            }
            return opened
        }
        let took = Date().timeIntervalSince(firstFix)
        #expect(took < 60, "the place opened \(Int(took)) s after the first fix")
        let waiting = said.filter { $0.contains("fixes come every 5 s: ") && $0.contains(" of 3 confirming fixes") }
        #expect(
            waiting.contains { $0.hasPrefix("confirming") && $0.contains("place of \u{201C}place\u{201D}") }, "\(said)")
        #expect(waiting.contains { !$0.hasPrefix("confirming") && $0.contains("location") }, "read: \(said)")
        #expect(waiting.contains { $0.contains("here (within 30 m)") }, "nav: \(said)")
        #expect(fake.output.contains(#""class":"TPV""#))
    }
}
