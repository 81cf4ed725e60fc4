import ChestCore
import ChestIO
import ChestSeal
import Foundation

/// The in-process benchmarks of docs/DESIGN.md "Performance targets": what one fix costs the engine with many pending location locks.
/// `chest-bench [LOCKS]` runs it; `chest-bench messages COUNT DIR` writes sealed message files for
/// scripts/bench.sh; `chest-bench seal hostile COUNT DIR LAT,LON` one sender's files for scripts/bench-seal-share.sh; `chest-bench hunt` measures the organiser's board (HuntBench). docs/BENCHMARKS.md records the results.
package enum ChestBench {
    package static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "messages", (3...4).contains(arguments.count), let count = Int(arguments[1]) {
            // A fourth argument, "dense": every lock 600 m to 1.1 km east of the noisy walk's line (scripts/bench.sh step
            // 6), radius 10 to 500 m: in the cells the walk crosses, so every fix weighs them, yet never reached, so
            // the feed measures the weighing and not the writing of unlocks. "grid": 30 m locks on a 0.001° grid
            // centred on the hill walk of step 7 (issue 34's feed), which passes through some of them.
            let layout = arguments.count == 4 ? MessageLayout(rawValue: arguments[3]) : .spread
            guard let layout else {
                print("chest-bench: messages COUNT DIR [dense|grid]")
                exit(2)
            }
            writeMessages(count, into: arguments[2], layout: layout)
            return
        }
        if arguments.first == "trust" {
            measureTrust()
            return
        }
        if arguments.first == "seal", arguments.count == 5, arguments[1] == "hostile", let count = Int(arguments[2]) {
            let point = arguments[4].split(separator: ",").compactMap { Double($0) }
            guard count > 0, point.count == 2 else {
                print("chest-bench: seal hostile COUNT DIR LAT,LON")
                exit(2)
            }
            do {
                try SealBench.writeHostile(
                    count, into: arguments[3], around: Coordinate(latitude: point[0], longitude: point[1]))
            } catch {
                print("chest-bench: \(error)")
                exit(1)
            }
            return
        }
        if arguments.first == "seal" {
            SealBench.main(figuresOnly: arguments.dropFirst().first == "figures")
            return
        }
        if arguments.first == "quest" {
            QuestBench.main()
            return
        }
        if arguments.first == "gpx" {
            GeocacheBench.main()
            return
        }
        if arguments.first == "city" {
            CityBench.main(Array(arguments.dropFirst()))
            return
        }
        if arguments.first == "hunt" {
            HuntBench.main(Array(arguments.dropFirst()))
            return
        }
        if arguments.first == "memory", arguments.count == 2 {
            measureMemory(directory: arguments[1])
            return
        }
        let locks = arguments.first.flatMap(Int.init) ?? 100_000
        print("chest-bench: one fix against \(locks) pending location locks")
        var generator = SeededGenerator(seed: 2026)
        var engine = Engine(gpsServer: "bench")
        _ = engine.handle(.gpsLink(connected: true, server: "bench", reason: nil))
        // Locks spread over a 40 km square around Zurich, radii 10 m to 500 m, as a city-wide hunt would have.
        let centre = Coordinate(latitude: 47.3769, longitude: 8.5417)
        let spread = 0.18
        let start = Now(wall: Date(timeIntervalSince1970: 1_800_000_000), monotonic: 1000)
        let messages = (0..<locks).map { index -> StoredMessage in
            let point = Coordinate(
                latitude: centre.latitude + Double.random(in: -spread...spread, using: &generator),
                longitude: centre.longitude + Double.random(in: -spread...spread, using: &generator))
            var bytes = [UInt8](repeating: 0, count: 16)
            withUnsafeBytes(of: UInt64(index).bigEndian) { bytes.replaceSubrange(8..<16, with: $0) }
            let message = Message(
                id: MessageID(bytes: bytes), title: "m\(index)", from: "bench", created: start.wall,
                pages: [
                    Page(
                        text: "x",
                        setA: [.location(center: point, radius: Double.random(in: 10...500, using: &generator))])
                ])
            return StoredMessage(
                message: message, state: MessageState(ingestedAt: start.wall), chest: .regular, sentByYou: false)
        }
        let loadStart = DispatchTime.now()
        _ = engine.handle(.loaded(messages, refused: [], start))
        print(String(format: "  loading %d messages: %.0f ms", locks, elapsed(since: loadStart) * 1000))

        // A walk: 10,000 fixes, 1 s apart, a few metres each, wandering across the area.
        let fixes = 10_000
        var opened = 0
        let walk = BenchWalk(fixes: fixes, from: centre, at: start, using: &generator) { position, now, _, measure in
            measure {
                opened += engine.handle(.fix(BenchWalk.fix(position, now), now)).count {
                    if case .emit(.unlocked) = $0 { true } else { false }
                }
            }
        }
        let mean = walk.mean
        print("  per fix over \(fixes) fixes: \(walk.summary()) (\(opened) pages opened)")
        print(
            mean < 0.001
                ? "  OK: under 1 ms per fix (docs/DESIGN.md \"Performance targets\")"
                : "  OVER the 1 ms target (docs/DESIGN.md \"Performance targets\")")
    }

    /// Where `writeMessages` puts its locks.
    enum MessageLayout: String {
        /// Random points within 0.1° of Zurich's centre, 50 m each.
        case spread
        /// Random points 600 m to 1.1 km east of the noisy walk, 10 to 500 m each.
        case dense
        /// A square grid of 0.001° steps centred on Zurich's centre, 30 m each.
        case grid
    }

    /// Sealed one-page messages, each with one location lock kept in the clear, signed by a throwaway identity.
    static func writeMessages(_ count: Int, into directory: String, layout: MessageLayout = .spread) {
        let identity = try! Identity.loadOrCreate(at: directory + "/.bench-identity/identity.json")
        var generator = SeededGenerator(seed: 7)
        let side = Int(Double(count).squareRoot().rounded(.up))
        for index in 0..<count {
            let point: Coordinate
            let radius: Double
            switch layout {
            case .spread:
                point = Coordinate(
                    latitude: 47.3769 + Double.random(in: -0.1...0.1, using: &generator),
                    longitude: 8.5417 + Double.random(in: -0.1...0.1, using: &generator))
                radius = 50
            case .dense:
                point = Coordinate(
                    latitude: 47.3769 + Double.random(in: 0...0.0076, using: &generator),
                    longitude: 8.5417 + Double.random(in: 0.008...0.015, using: &generator))
                radius = Double.random(in: 10...500, using: &generator)
            case .grid:
                point = Coordinate(
                    latitude: 47.3769 + Double(index / side - side / 2) * 0.001,
                    longitude: 8.5417 + Double(index % side - side / 2) * 0.001)
                radius = 30
            }
            let message = Sealer.seal(
                Message(
                    id: MessageID(bytes: Sealer.randomBytes(16)), title: "bench \(index)",
                    from: "bench", created: Date(),
                    pages: [Page(text: "page", setA: [.location(center: point, radius: radius)])]),
                with: identity)
            try! MessageFile.encode(message).write(to: URL(fileURLWithPath: directory + "/m\(index).locked"))
        }
    }

    /// Resident memory before and after loading a chest directory's messages into an engine, the way chestd does.
    static func measureMemory(directory: String) {
        let before = residentKilobytes()
        let store = ChestStore(root: directory)
        let (messages, _) = store.loadAll(ingestedAt: Date())
        let afterDecode = residentKilobytes()
        var engine = Engine(gpsServer: "bench")
        _ = engine.handle(
            .loaded(
                messages,
                refused: [], Now(wall: Date(), monotonic: 0)))
        let after = residentKilobytes()
        print(
            "messages \(messages.count): RSS \(before) kB before, \(afterDecode) kB decoded, \(after) kB in the engine",
            String(format: "(%.0f bytes a message)", Double(after - before) * 1024 / Double(max(messages.count, 1))))
        withExtendedLifetime(engine) {}
    }

    static func residentKilobytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }

    static func elapsed(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }
}
