import ChestCore
import Foundation

extension ChestBench {
    /// `chest-bench trust`: what the trust checks and the clock guard cost per fix (docs/BENCHMARKS.md), on a
    /// 10,000-fix walk from a USB receiver with a fresh sky of 9 satellites (GPS and GLONASS) on every fix.
    static func measureTrust() {
        print("chest-bench: the trust checks and the clock guard, per fix")
        var generator = SeededGenerator(seed: 2026)
        var trust = TrustAssessor()
        trust.receiver(
            FixSource(kind: .usb, path: "/dev/ttyACM0", driver: "u-blox", vendorID: "1546", productID: "01a7"))
        var clock = ClockGuard()
        let start = Now(wall: Date(timeIntervalSince1970: 1_800_000_000), monotonic: 1000)
        let fixes = 10_000
        var suspect = 0
        let walk = BenchWalk(
            fixes: fixes, from: Coordinate(latitude: 47.3769, longitude: 8.5417), at: start,
            using: &generator
        ) { position, now, generator, measure in
            // The reader summarises each SKY report once; the checks then see only its few numbers.
            let sky = SkySummary(
                serial: Int(now.monotonic),
                used: (0..<9).map { index in
                    (
                        prn: index + 1, gnssid: index % 3 == 0 ? 6 : 0,
                        ss: Double(30 + index * 2 + Int.random(in: -1...1, using: &generator))
                    )
                })
            let fix = BenchWalk.fix(position, now, sky: sky)
            measure {
                trust.assess(fix)
                clock.observe(fix, now: now, level: trust.level)
            }
            if trust.level == .suspect { suspect += 1 }
        }
        print("  per fix over \(fixes) fixes: \(walk.summary(digits: 2)) (\(suspect) suspect)")
    }
}
