import ChestCore
import ChestSimulator
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// Sealed places whose keys come after the reader has moved on (docs/DESIGN.md "Late keys"): a walk replayed at 20×
/// real time, and a car at 50 km/h at 1 Hz with both cores busy at the default place cost (4 passes over 768 MiB). Each waits for the
/// pages with a deadline that allows a loaded 2-core machine its Argon2id runs.
@Suite(.realProcesses, .tags(.process, .gpsd), .timeLimit(.minutes(10)))
struct LateKeyTests {
    static let origin = Coordinate(latitude: 47.3700, longitude: 8.5400)

    /// `metres` east and `north` metres north of `origin`.
    static func point(east: Double, north: Double = 0) -> Coordinate {
        let perDegree = Coordinate.earthRadius * .pi / 180
        return Coordinate(
            latitude: origin.latitude + north / perDegree,
            longitude: origin.longitude + east / (perDegree * cos(origin.latitude * .pi / 180)))
    }

    /// Composes a quest of one-page messages, one sealed 30 m place each, at the default costs and in one search
    /// area (so they share a grid, as an organiser's quest does), and puts them into the reader's chest, where chestd
    /// finds them as it starts.
    func composeAndImport(_ world: ChestHarness, places: [(title: String, at: Coordinate)], cost: [String] = []) throws
    {
        var quest = "search-area: \(Self.origin.latitude),\(Self.origin.longitude)/3km\n"
        for (index, place) in places.enumerated() {
            quest += "message: m\(index)\ntitle: \(place.title)\npage: reached \(place.title)\n"
            quest += "  lock: location=\(place.at.latitude),\(place.at.longitude)/30m\n"
        }
        try quest.write(toFile: world.root + "/places.quest", atomically: true, encoding: .utf8)
        let composed = try world.chest(["compose", "--quest", "places.quest", "-o", "out"] + cost, user: "alice")
        #expect(composed.status == 0, "\(composed.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: world.root + "/out").filter {
            $0.hasSuffix(".locked")
        }
        #expect(files.count == places.count)
        for name in files {
            try FileManager.default.copyItem(atPath: world.root + "/out/" + name, toPath: world.chest + "/" + name)
        }
    }

    /// Each open page's (reachedAt, openedAt), by title, from `chest read --json`, and the trust its receipt gives
    /// (`chest receipt`).
    func openings(_ world: ChestHarness) throws -> [String: (reached: Date?, opened: Date?, trust: String?)] {
        var result: [String: (Date?, Date?, String?)] = [:]
        for item in try world.list() {
            guard let id = item["id"]?.string, let title = item["title"]?.string else { continue }
            let read = try world.chest(["read", "--json", id])
            guard let object = JSON.object(read.stdout),
                let page = (object["pages"]?.array)?.first, page["open"]?.bool == true
            else { continue }
            result[title] = (
                (page["reachedAt"]?.string).flatMap { ISO8601.parse($0) },
                (page["openedAt"]?.string).flatMap { ISO8601.parse($0) },
                JSON.object(try world.chest(["receipt", id]).stdout)?["evidence"]?["trust"]?["level"]?.string
            )
        }
        return result
    }

    @Test func aWalkReplayedAt20TimesRealTimeOpensEverySealedPlaceItStoodIn() throws {
        let world = ChestHarness()
        let stops = [Self.point(east: 100), Self.point(east: 350), Self.point(east: 600)]
        let aside = Self.point(east: 350, north: 200)
        // The moderate cost (about 0.35 s a cell) keeps the suite short and still outlasts a stop 20 times over.
        try composeAndImport(
            world, places: [("first", stops[0]), ("second", stops[1]), ("third", stops[2]), ("aside", aside)],
            cost: ["--seal-cost", "moderate"])
        // 4 s at each stop, walking between: at 20× each stop lasts 0.2 s, less than one derivation.
        let walk = NMEAWalk(
            waypoints: [.init(Self.origin, altitudeMSL: 400, hold: 1)]
                + stops.map { .init($0, altitudeMSL: 400, hold: 4) }
                + [.init(Self.point(east: 800), altitudeMSL: 400)], start: Date(), speed: 1.4)
        let fake = try GPSFake(walk: walk, delay: 0.01)
        defer { fake.stop() }
        #expect(try world.replay(fake, timeout: 120) == 0, "\(fake.output)")
        try world.waitUntil("the three places the walk stood in open", timeout: 300) {
            let states = try world.states()
            return ["first", "second", "third"].allSatisfy { states[$0] == "open" }
        }
        // Every cell the walk asked for is tried before the place aside is judged shut.
        try world.waitUntil("no cell waits", timeout: 300) {
            ((try world.status()["sealed"])?["cellsWaiting"]?.int) == 0
        }
        #expect(try world.states()["aside"] == "locked", "\(world.daemonLog)")
        for (title, times) in try openings(world) {
            let reached = try #require(times.reached, "\(title) has no reachedAt")
            let opened = try #require(times.opened)
            #expect(reached <= opened, "\(title) reached \(reached) after it opened \(opened)")
            #expect(times.trust == "simulated", "\(title): \(times.trust ?? "no evidence")")
        }
        let read = try world.chest([
            "read", try #require(try world.list().first { $0["title"]?.string == "first" }?["id"]?.string),
        ])
        #expect(read.stdout.contains("place reached"), "\(read.stdout)")
    }

    /// A drive that ends with three places 100 m apart, at the default cost (a key about 1.4 s, one at a time): the
    /// later keys come after gpsfake ended and gpsd dropped the device, and each receipt still gives the trust of the
    /// fixes that reached its place, simulated (gpsfake's pty). A receipt said "unverified" (no receiver) for the
    /// last team of a hunt's walk under load.
    @Test func keysThatComeAfterTheFeedEndedKeepTheTrustOfTheFixesThatReachedThePlaces() throws {
        let world = ChestHarness()
        let places = [100.0, 200, 300].map { Self.point(east: $0) }
        try composeAndImport(world, places: places.enumerated().map { ("place \($0.offset)", $0.element) })
        let walk = NMEAWalk(
            waypoints: [.init(Self.origin, altitudeMSL: 400, hold: 1)]
                + places.map { .init($0, altitudeMSL: 400, hold: 3) }, start: Date(), speed: 20)
        let fake = try GPSFake(walk: walk, delay: 0.01)
        defer { fake.stop() }
        #expect(try world.replay(fake, timeout: 120) == 0, "\(fake.output)")
        try world.waitUntil("the three places open", timeout: 300) {
            try world.states().values.filter { $0 == "open" }.count == 3
        }
        for (title, opening) in try openings(world) {
            #expect(opening.trust == "simulated", "\(title): \(opening.trust ?? "no evidence")\n\(world.daemonLog)")
        }
    }

    @Test func aDriveAt50KmHThroughA30MetrePlaceOpensItWhileBothCoresAreBusy() throws {
        let world = ChestHarness()
        let road = Self.point(east: 200)
        let offRoad = Self.point(east: 200, north: 200)
        try composeAndImport(world, places: [("on the road", road), ("off the road", offRoad)])
        // Both cores kept busy from the start of the drive until the page opens (not longer: the suite's other tests
        // run beside this one).
        let burners = try (0..<2).map { _ in
            try TestProcess(
                "/bin/sh", ["-c", "while :; do :; done"], output: URL(fileURLWithPath: world.root + "/burner.out"))
        }
        var burning = true
        func stopBurning() {
            if burning { burners.forEach { _ = $0.terminate() } }
            burning = false
        }
        defer { stopBurning() }
        // 50 km/h is 13.9 m/s; fixes at 1 Hz in real time (5 sentences of 0.2 s): four or five inside the place.
        let walk = NMEAWalk(
            waypoints: [.init(Self.origin, altitudeMSL: 400), .init(Self.point(east: 400), altitudeMSL: 400)],
            start: Date(), speed: 50 / 3.6)
        let inside = walk.epochs().filter { $0.hasFix && $0.coordinate.distance(to: road) <= 30 }.count
        #expect((4...5).contains(inside), "\(inside) fixes inside the place")
        let fake = try GPSFake(walk: walk, delay: 0.2)
        defer { fake.stop() }
        world.gpsd = "127.0.0.1:\(fake.port)"
        try world.startDaemon()
        try world.waitUntil("the place on the road opens", timeout: 300) { try world.states()["on the road"] == "open" }
        stopBurning()
        #expect(fake.waitForExit(timeout: 120) == 0, "\(fake.output)")
        try world.waitUntil("no cell waits", timeout: 300) {
            ((try world.status()["sealed"])?["cellsWaiting"]?.int) == 0
        }
        #expect(try world.states()["off the road"] == "locked", "\(world.daemonLog)")
    }
}
