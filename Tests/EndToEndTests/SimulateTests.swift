import ChestCore
import ChestGPX
import ChestSimulator
import ChestTestSupport
import Foundation
import Testing

/// `chest simulate`: the demo quest along the demo walk, in-process, and the same walk through gpsfake and chestd.
@Suite(.realProcesses, .tags(.process), .timeLimit(.minutes(3)))
struct SimulateTests {
    static let root = GPSLogs.packageRoot.path
    static let quest = root + "/demo/quest/hill.quest"

    @Test func theDemoQuestOpensEveryPageOnASnowyDay() throws {
        let world = ChestHarness()
        let outcome = try world.chest(["simulate", Self.quest, Self.root + "/demo/walk.txt", "--weather", "snowy,-2"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == "Simulated 92 track points, 09:00:00 to 09:01:31 UTC, through chestd's engine in-process; PINs are not entered."
        )
        for expected in [
            "09:00:00  point 1      walk: page 1 open from the start",
            "09:00:02  point 3      walk: page 2 opened by set A",
            "09:00:02  point 3      walk: after lock of page 3 set A latched at 47.37690, 8.54170",
            "09:00:34  point 35     walk: page 3 opened by set A",
            "09:01:13  point 74     walk: page 4 opened by set A",
            "09:01:13  point 74     bonus: page 2 opened by set A",
            "6 of 6 pages opened.",
        ] {
            #expect(lines.contains(expected), "\(expected)\n\(outcome.stdout)")
        }
        #expect(!FileManager.default.fileExists(atPath: Self.quest + ".ids"))
    }

    /// Issue 59: the track given first was read as a quest, a line of errors each; the order is said instead.
    @Test func aTrackGivenFirstIsNamedAsSuch() throws {
        let world = ChestHarness()
        let walk = Self.root + "/demo/walk.txt"
        let outcome = try world.chest(["simulate", walk, Self.quest])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr
                == "chest: \(walk) is a track and \(Self.quest) is not: the track comes last, as in chest simulate "
                + "\(Self.quest) \(walk)\n", "\(outcome.stderr)")
    }

    @Test func pagesThatNeverOpenSayWhyAndTheStatusIsOne() throws {
        let world = ChestHarness()
        let quest = world.root + "/far.quest"
        try """
        message: far
        title: Far away
        page: Beyond the hill
          lock: location=47.3790,8.5431/30m
          or
          lock: pin=1234
        page: Too high
          lock: altitude=900..1000
        page: Too late
          lock: time=2030-01-01T00:00:00Z
        page: Cold
          lock: temperature=-10..0
        """.write(toFile: quest, atomically: true, encoding: .utf8)
        let outcome = try world.chest(["simulate", quest, Self.root + "/demo/walk.txt"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "chest: 4 of 4 pages never opened\n")
        for expected in [
            "  far page 1:",
            "    set A location: the track never came within 30 m; closest 127 m at 09:01:23",
            "    set B pin: needs the PIN; simulate enters none",
            "    set A altitude: the track never reached 900..1000 m; closest 470 m at 09:01:23",
            "    set A time: opens at 00:00:00, after the track ended at 09:01:31",
            "    set A temperature: no --weather given, so the weather stays unknown",
            "0 of 4 pages opened.",
        ] {
            #expect(
                outcome.stdout.contains(expected + "\n") || outcome.stdout.hasSuffix(expected),
                "\(expected)\n\(outcome.stdout)")
        }
    }

    @Test func aGPXTrackAndAnNMEALogOfTheWalkGiveTheSameTimeline() throws {
        let world = ChestHarness()
        let walk = try NMEAWalk(description: String(contentsOfFile: Self.root + "/demo/walk.txt", encoding: .utf8))
        let gpx = GPX(
            track: walk.epochs().map {
                GPX.TrackPoint(coordinate: $0.coordinate, elevation: $0.altitudeMSL, time: $0.time)
            }.enumerated().filter { walk.epochs()[$0.offset].hasFix }.map(\.element))
        try gpx.xml().write(toFile: world.root + "/walk.gpx", atomically: true, encoding: .utf8)
        let arguments = ["--weather", "snowy"]
        let fromWalk = try world.chest(["simulate", Self.quest, Self.root + "/demo/walk.txt"] + arguments)
        let fromNMEA = try world.chest(["simulate", Self.quest, Self.root + "/demo/walk.nmea"] + arguments)
        let fromGPX = try world.chest(["simulate", Self.quest, world.root + "/walk.gpx"] + arguments)
        #expect(
            fromWalk.status == 0 && fromNMEA.status == 0 && fromGPX.status == 0, "\(fromGPX.stdout)\(fromGPX.stderr)")
        func opened(_ text: String) -> [String] {
            // GPX has no epochs without a fix, so the points are numbered differently; the times agree.
            text.split(separator: "\n").filter { $0.contains(" opened ") }.map { line in
                String(line.prefix(8)) + String(line.dropFirst(24))
            }
        }
        #expect(opened(fromWalk.stdout).count == 5)
        #expect(opened(fromNMEA.stdout) == opened(fromWalk.stdout))
        #expect(opened(fromGPX.stdout) == opened(fromWalk.stdout))
    }

    /// The same walk through gpsfake, gpsd and a private chestd opens the same pages as the simulation.
    @Test func chestdAgreesWithTheSimulation() throws {
        let world = ChestHarness()
        let quest = world.root + "/walk.quest"
        try """
        message: walk
        title: The hill walk
        page: Fountain
          lock: location=47.376900,8.541700/30m
        page: Halfway
          lock: after=#1
          lock: altitude=430..460
        page: Top
          lock: location=47.377854,8.543109/25m
        page: Nowhere
          lock: location=47.3790,8.5431/30m
        message: bonus
        title: Bonus
        after: walk#3
        page: The view
        """.write(toFile: quest, atomically: true, encoding: .utf8)
        // Format 1: the in-process simulation reads message files whose points are in the clear.
        let built = try world.chest(
            ["compose", "--quest", quest, "-o", world.root + "/out", "--format", "1"], user: "alice")
        #expect(built.status == 0, "\(built.stderr)")
        let walkText = try String(contentsOfFile: Self.root + "/demo/walk.txt", encoding: .utf8)
        let description = walkText.replacingOccurrences(
            of: "start 2026-06-01T09:00:00Z", with: "start " + ISO8601.string(Date()))
        try description.write(toFile: world.root + "/walk.txt", atomically: true, encoding: .utf8)

        let simulated = try world.chest([
            "simulate", world.root + "/out/walk.locked", world.root + "/out/bonus.locked",
            world.root + "/walk.txt",
        ])
        #expect(simulated.status == 1 && simulated.stdout.contains("walk.locked page 4:"), "\(simulated.stdout)")
        let simulatedOpen = Set(
            simulated.stdout.split(separator: "\n").compactMap { line -> String? in
                guard let range = line.range(of: ".locked: page ") else { return nil }
                let name = line[..<range.lowerBound].split(separator: " ").last.map(String.init) ?? ""
                return name + " " + String(line[range.upperBound...].prefix(1))
            })

        for file in ["walk", "bonus"] {
            try FileManager.default.copyItem(
                atPath: world.root + "/out/\(file).locked", toPath: world.chest + "/\(file).locked")
        }
        #expect(try world.walk(NMEAWalk(description: description)) == 0)
        var chestdOpen: Set<String> = []
        for item in try world.list() {
            let name = (item["title"]?.string) == "Bonus" ? "bonus" : "walk"
            for page in item["openPages"]?.ints ?? [] { chestdOpen.insert("\(name) \(page)") }
        }
        #expect(chestdOpen == ["walk 1", "walk 2", "walk 3", "bonus 1"], "\(world.daemonLog)")
        #expect(simulatedOpen == chestdOpen, "\(simulated.stdout)")

        // simulate --gpsd runs that same path itself, with a private chestd.
        let replayed = try world.chest([
            "simulate", world.root + "/out/walk.locked", world.root + "/out/bonus.locked",
            world.root + "/walk.txt", "--gpsd",
        ])
        #expect(
            replayed.status == 1 && replayed.stderr == "chest: 1 of 5 pages never opened\n",
            "\(replayed.stdout)\(replayed.stderr)")
        let replayedOpen = Set(
            replayed.stdout.split(separator: "\n").compactMap { line -> String? in
                guard let range = line.range(of: ".locked: page ") else { return nil }
                let name = line[..<range.lowerBound].split(separator: " ").last.map(String.init) ?? ""
                return name + " " + String(line[range.upperBound...].prefix(1))
            })
        #expect(replayedOpen == simulatedOpen, "\(replayed.stdout)")
        // The private chestd has gone with gpsd, so it explains what it still lacks.
        #expect(
            replayed.stdout.contains("walk.locked page 4:\n    set A location: no GPS fix yet"), "\(replayed.stdout)")
    }

    /// Issue 25: `simulate --gpsd --weather` gives the private chestd that weather, served on loopback as
    /// Open-Meteo would; a page that wants other weather still never opens and says why.
    @Test func theGPSDRehearsalTakesTheWeatherToo() throws {
        let world = ChestHarness()
        let replayed = try world.chest(try Self.weatherRehearsal(in: world))
        #expect(
            replayed.status == 1 && replayed.stderr == "chest: 1 of 3 pages never opened\n",
            "\(replayed.stdout)\(replayed.stderr)")
        #expect(
            replayed.stdout.contains("sky: page 1 opened by set A")
                && replayed.stdout.contains("sky: page 2 opened by set A"),
            "\(replayed.stdout)")
        #expect(replayed.stdout.contains("sky page 3:\n    set A weather: "), "\(replayed.stdout)")
    }

    /// gpsfake gives up at once when it reaches gpsd before gpsd listens on a busy machine ("socket error"): the
    /// rehearsal replays again on a new port (docs/DESIGN.md "gpsfake pitfalls"). A gpsfake first on PATH gives up
    /// the first time it is started, as the real one did in a fresh clone's `make test`.
    @Test func aGPSFakeThatGivesUpAtOnceIsStartedAgain() throws {
        let world = ChestHarness()
        let (bin, starts) = try world.gpsfakeGivingUpOnce()
        var environment = world.environment()
        environment["PATH"] = bin + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        let replayed = try Subprocess.run(
            ChestHarness.products + "/chest", try Self.weatherRehearsal(in: world), environment: environment,
            directory: world.root)
        #expect(try String(contentsOfFile: starts, encoding: .utf8) == "start\nstart\n")
        #expect(replayed.stderr == "chest: 1 of 3 pages never opened\n", "\(replayed.stdout)\(replayed.stderr)")
        #expect(replayed.stdout.contains("sky: page 2 opened by set A"), "\(replayed.stdout)")
    }

    /// gpsfake feeds 1.4 s after gpsd listens, whoever is connected: a gpsd slow to start put the feed inside the
    /// private chestd's reconnection backoff (1, 2, 4 s), and the first place of the track passed unseen. A gpsd
    /// that sleeps 4 s before it starts (GPSD_HOME) makes that certain; the rehearsal holds gpsfake until chestd is
    /// connected, so the fountain, the track's first 6 s, still opens.
    @Test func aGPSDSlowToStartStillHasChestdThereForTheFirstPlace() throws {
        let world = ChestHarness()
        let bin = try world.program("gpsd", "sleep 4\nexec /usr/sbin/gpsd \"$@\"")
        let quest = world.root + "/fountain.quest"
        try "message: fountain\ntitle: At the fountain\npage: Here\n  lock: location=47.376900,8.541700/30m\n"
            .write(toFile: quest, atomically: true, encoding: .utf8)
        let walk = try String(contentsOfFile: Self.root + "/demo/walk.txt", encoding: .utf8)
            .replacingOccurrences(of: "start 2026-06-01T09:00:00Z", with: "start " + ISO8601.string(Date()))
        try walk.write(toFile: world.root + "/walk.txt", atomically: true, encoding: .utf8)
        var environment = world.environment()
        environment["GPSD_HOME"] = bin
        let replayed = try Subprocess.run(
            ChestHarness.products + "/chest", ["simulate", quest, world.root + "/walk.txt", "--gpsd"],
            environment: environment, directory: world.root)
        #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)")
        #expect(replayed.stdout.contains("fountain: page 1 opened"), "\(replayed.stdout)")
    }

    /// `chest simulate` of a quest whose pages want snow, cold and sun, along the demo walk dated now, through
    /// gpsd with snowy weather at -2 °C.
    static func weatherRehearsal(in world: ChestHarness) throws -> [String] {
        let quest = world.root + "/weather.quest"
        try """
        message: sky
        title: Under the sky
        page: Snow
          lock: weather=snowy
        page: Cold
          lock: temperature=-5..0
        page: Sun
          lock: weather=clear
        """.write(toFile: quest, atomically: true, encoding: .utf8)
        let walk = try String(contentsOfFile: Self.root + "/demo/walk.txt", encoding: .utf8)
            .replacingOccurrences(of: "start 2026-06-01T09:00:00Z", with: "start " + ISO8601.string(Date()))
        try walk.write(toFile: world.root + "/walk.txt", atomically: true, encoding: .utf8)
        return ["simulate", quest, world.root + "/walk.txt", "--gpsd", "--weather", "snowy,-2"]
    }
}
