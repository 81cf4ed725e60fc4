import ChestCore
import ChestIO
import Foundation

/// `chest-bench quest`: parsing a quest whose page goes on for many `|` continuation lines, at growing sizes, to
/// show the time grows linearly (docs/BENCHMARKS.md "Quests").
enum QuestBench {
    static func main() {
        print("chest-bench: parsing a quest of one page continued over N | lines")
        let parser = QuestParser(
            timeZone: Zone(identifier: "UTC")!, pageText: { $0 },
            waypoint: { _, _ in
                Coordinate(latitude: 0, longitude: 0)
            })
        for lines in [12_500, 25_000, 50_000, 100_000, 200_000] {
            var text = "message: long\ntitle: Long\npage: first line\n"
            text.reserveCapacity(lines * 40)
            for index in 3..<lines { text += "| line \(index) of a page that goes on and on\n" }
            var best = Double.infinity
            for _ in 0..<3 {
                let start = DispatchTime.now()
                let quest = try! parser.parse(text)
                best = min(best, ChestBench.elapsed(since: start))
                precondition(quest.messages[0].pages[0].text.count > lines * 30)
            }
            print(
                String(
                    format: "  %7d lines (%.1f MB): %.3f s, %.2f µs a line", lines, Double(text.utf8.count) / 1e6, best,
                    best / Double(lines) * 1e6))
        }
    }
}
