import ChestCore
import ChestGPX
import ChestIO
import Foundation

/// `chest-bench gpx`: a Pocket Query of 1,000 caches (about 20 MB) and one of 5,000, read with libxml2 and mapped to a
/// quest, with the time (best of three) and the peak resident memory it added (docs/BENCHMARKS.md "Quests").
enum GeocacheBench {
    static func main() {
        print("chest-bench: a Pocket Query read and made a quest (GeocacheFile, GeocacheCourse, QuestParser)")
        let parser = QuestParser(
            timeZone: Zone(identifier: "UTC")!, pageText: { $0 },
            waypoint: { _, _ in
                Coordinate(latitude: 0, longitude: 0)
            })
        for caches in [1_000, 5_000] {
            let path = NSTemporaryDirectory() + "/chest-bench-\(caches).gpx"
            try! Data(GeocacheBenchFile.pocketQuery(caches: caches, logsPerCache: 20).utf8).write(
                to: URL(fileURLWithPath: path))
            defer { try? FileManager.default.removeItem(atPath: path) }
            let size = (try! FileManager.default.attributesOfItem(atPath: path)[.size] as! NSNumber).intValue
            resetPeak()
            let before = peakKilobytes()
            var best = Double.infinity
            var pages = 0
            for _ in 0..<3 {
                let start = DispatchTime.now()
                let file = try! GeocacheFile(data: Data(contentsOf: URL(fileURLWithPath: path)))
                let quest = try! parser.parse(file.course(fileName: path).quest().text)
                best = min(best, ChestBench.elapsed(since: start))
                pages = quest.messages.reduce(0) { $0 + $1.pages.count }
            }
            precondition(pages == caches)
            print(
                String(
                    format: "  %5d caches (%.1f MB): %.3f s, peak RSS +%d MB (%d pages in %d messages)", caches,
                    Double(size) / 1e6, best, (peakKilobytes() - before) / 1024, pages, (pages + 4) / 5))
        }
    }

    /// VmHWM, the peak resident memory, in kB.
    static func peakKilobytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }

    /// Resets VmHWM to the current resident memory (writing 5 to /proc/self/clear_refs).
    static func resetPeak() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }
}
