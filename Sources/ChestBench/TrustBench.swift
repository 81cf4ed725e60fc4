import ChestCore
import Foundation

extension ChestBench {
    /// `chest-bench trust`: what the trust checks and the clock guard cost per fix (docs/BENCHMARKS.md), on a
    /// 10,000-fix walk from a USB receiver with a fresh sky of 9 satellites (GPS and GLONASS) on every fix.
    static func measureTrust() {
        print("chest-bench: the trust checks and the clock guard, per fix")
        var generator = SeededGenerator(seed: 2026)
        var trust = TrustAssessor()
        trust.receiver(FixSource(kind: .usb, path: "/dev/ttyACM0", driver: "u-blox", vendorID: "1546", productID: "01a7"))
        var clock = ClockGuard()
        let start = Now(wall: Date(timeIntervalSince1970: 1_800_000_000), monotonic: 1000)
        var position = Coordinate(latitude: 47.3769, longitude: 8.5417)
        let fixes = 10_000
        var durations: [Double] = []
        durations.reserveCapacity(fixes)
        var suspect = 0
        for second in 0..<fixes {
            position.latitude += Double.random(in: -0.00005...0.00005, using: &generator)
            position.longitude += Double.random(in: -0.00005...0.00005, using: &generator)
            let now = start.advanced(by: Double(second))
            // The reader summarises each SKY report once; the checks then see only its few numbers.
            let sky = SkySummary(serial: second, used: (0..<9).map { index in
                (prn: index + 1, gnssid: index % 3 == 0 ? 6 : 0, ss: Double(30 + index * 2 + Int.random(in: -1...1, using: &generator)))
            })
            let fix = Fix(mode: 3, coordinate: position, altitudeMSL: 410, eph: 5, epv: 8, satellitesUsed: 9,
                          time: now.wall, receivedAt: now.monotonic, sky: sky)
            let before = DispatchTime.now()
            trust.assess(fix)
            clock.observe(fix, now: now, level: trust.level)
            durations.append(elapsed(since: before))
            if trust.level == .suspect { suspect += 1 }
        }
        durations.sort()
        let mean = durations.reduce(0, +) / Double(durations.count)
        print(String(format: "  per fix over %d fixes: mean %.2f µs, median %.2f µs, p99 %.2f µs, max %.1f µs (%d suspect)",
                     fixes, mean * 1e6, durations[fixes / 2] * 1e6, durations[fixes * 99 / 100] * 1e6,
                     durations[fixes - 1] * 1e6, suspect))
    }
}
