import ChestCore
import ChestSimulator
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// `chest watch` tells a fix found, lost to a receiver without sky, found again, lost to a frozen feed, and gpsd
/// gone: in words for a person, and as JSON lines that each carry `at`.
@Suite(.realProcesses, .tags(.process, .gpsd), .timeLimit(.minutes(2)))
struct WatchTests {
    static let start = Coordinate(latitude: 47.3769, longitude: 8.5417)

    @Test func fixFoundLostAndGpsdGoneInWordsAndJSON() throws {
        let world = ChestHarness()
        let now = Date()
        func epoch(_ second: Int, fix: Bool = true) -> [String] {
            NMEAWalk.sentences(
                for: NMEAWalk.Epoch(
                    time: now.addingTimeInterval(Double(second)), coordinate: Self.start,
                    altitudeMSL: 410, hasFix: fix))
        }
        // A fix for 4 s, none for 4 s (under trees), a fix for 4 s, then the feed freezes.
        let epochs = (0..<4).map { epoch($0) } + (4..<8).map { epoch($0, fix: false) } + (8..<12).map { epoch($0) }
        let feeder = try PTYFeeder(epochs: epochs, interval: 1, paused: true)
        defer { feeder.stop() }
        let gpsd = try world.startDaemon(readingFrom: feeder)
        defer { gpsd.stop() }
        let words = world.root + "/watch.txt"
        let json = world.root + "/watch.json"
        let errors = world.root + "/watch.err"
        let watchers = [
            try world.spawnClient(["watch", "--utc", "--timeout", "90"], stdout: words, stderr: errors),
            try world.spawnClient(["watch", "--json", "--timeout", "90"], stdout: json, stderr: errors),
        ]
        defer {
            for watcher in watchers {
                watcher.terminate()
            }
        }
        feeder.resume()

        func lines() -> [JSON] {
            ((try? String(contentsOfFile: json, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
                JSON.object($0)
            }
        }
        func told() -> [String] {
            lines().compactMap { line in
                switch line["event"]?.string {
                case "fixFound": "found"
                case "fixLost": "lost \(line["cause"]?.string ?? "?")"
                case "gpsd": line["connected"]?.bool == false ? "gpsd gone" : nil
                default: nil
                }
            }
        }
        try world.waitUntil("the frozen feed is told", timeout: 40) { told().contains("lost silent") }
        gpsd.stop()
        try world.waitUntil("gpsd gone is told", timeout: 15) { told().contains("gpsd gone") }
        #expect(told() == ["found", "lost noFix", "found", "lost silent", "gpsd gone"], "\(lines())")
        // Every line carries its time, ISO 8601.
        for line in lines() {
            let at = line["at"]?.string
            #expect(at.flatMap { ISO8601.parse($0) } != nil, "\(line)")
        }

        try world.waitUntil("the words too", timeout: 10) {
            ((try? String(contentsOfFile: words, encoding: .utf8)) ?? "").contains("is gone")
        }
        let text = try String(contentsOfFile: words, encoding: .utf8)
        #expect(
            text.contains("fixFound   2D fix  47.376900 N  8.541700 E")
                || text.contains("fixFound   3D fix  47.376900 N"), "\(text)")
        #expect(text.contains("fixLost    the receiver has no fix: it needs a view of the open sky"), "\(text)")
        #expect(text.contains("fixLost    no report from the receiver for 5 s"), "\(text)")
        #expect(
            text.contains("gpsd       gpsd at \(world.gpsd) is gone: gpsd closed the connection; chestd keeps trying"),
            "\(text)")
        print("chest watch --utc:\n\(text)")
    }
}
