import ChestCore
import Dispatch

import struct Foundation.Date

/// The benchmarks' walk: fixes 1 s apart, each a few metres from the last (seeded), and the time each step's
/// measured work took.
struct BenchWalk {
    private(set) var durations: [Double] = []

    /// Walks `fixes` steps from `start` at `time`; `step` gets each position and moment and times its work with
    /// `measure`.
    init(
        fixes: Int, from start: Coordinate, at time: Now, using generator: inout SeededGenerator,
        _ step: (Coordinate, Now, inout SeededGenerator, (() -> Void) -> Void) -> Void
    ) {
        durations.reserveCapacity(fixes)
        var position = start
        for second in 0..<fixes {
            position.latitude += Double.random(in: -0.00005...0.00005, using: &generator)
            position.longitude += Double.random(in: -0.00005...0.00005, using: &generator)
            var taken: [Double] = []
            step(position, time.advanced(by: Double(second)), &generator) { work in
                let before = DispatchTime.now()
                work()
                taken.append(ChestBench.elapsed(since: before))
            }
            durations += taken
        }
        durations.sort()
    }

    /// A fix with the usual quality at this place and moment.
    static func fix(_ position: Coordinate, _ now: Now, sky: SkySummary? = nil) -> Fix {
        Fix(
            mode: 3, coordinate: position, altitudeMSL: 410, eph: 5, epv: 8, satellitesUsed: 9, time: now.wall,
            receivedAt: now.monotonic, sky: sky)
    }

    var mean: Double { durations.reduce(0, +) / Double(max(durations.count, 1)) }

    /// "mean 4.1 µs, median 3.9 µs, p99 12.0 µs, max 210.3 µs"
    func summary(digits: Int = 1) -> String {
        func µs(_ seconds: Double) -> String { String(format: "%.\(digits)f µs", seconds * 1e6) }
        let count = durations.count
        return "mean \(µs(mean)), median \(µs(durations[count / 2])), p99 \(µs(durations[count * 99 / 100])), "
            + "max \(µs(durations[count - 1]))"
    }
}
