import ChestCore
import ChestIO
import ChestTestSupport
import Foundation
import Glibc
import Synchronization
import Testing

/// Zones read from the system's tz database by chest's own TZif reader, checked against the C library's
/// `localtime_r`/`mktime` and Python's zoneinfo, each run in a child process with its own `TZ`: this process's
/// `TZ` is never set (Sources/ChestIO/Zone+Database.swift, docs/ARCHITECTURE.md "Time zones"). The comparisons run
/// Python and are `make test`'s; the rest run under `make check` too.
@Suite(.realProcesses, .timeLimit(.minutes(10)))
struct ZoneDatabaseTests {
    static let python = "/usr/bin/python3"

    /// Runs a Python program in a child with `environment`, its input in a file; its output.
    static func python(_ program: String, input: String, environment: [String: String] = [:]) throws -> [Substring] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("chest-zone-\(UUID().uuidString)").path
        try input.write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        let outcome = try Subprocess.run(
            python, ["-c", program, path], environment: environment.merging(["LC_ALL": "C"]) { a, _ in a })
        try #require(outcome.status == 0, "\(outcome.stderr)")
        return outcome.stdout.split(separator: "\n")
    }

    /// Instants from 1901 to 2100 every 9 days and a bit, and a second before and at each change the zone has.
    static func instants(_ zone: Zone) -> [Int64] {
        var instants = Array(stride(from: Int64(-2_147_483_648), to: 4_102_444_800, by: 789_123))
        for change in zone.rules.transitions where change > -2_147_483_648 { instants += [change - 1, change] }
        return instants
    }

    /// glibc's view of `local`: "year month day hour minute second weekday offset abbreviation".
    static func fields(_ local: Zone.LocalTime) -> String {
        "\(local.year) \(local.month) \(local.day) \(local.hour) \(local.minute) \(local.second) \(local.weekday) "
            + "\(local.offset) \(local.abbreviation)"
    }

    static let glibcLocal = """
        import sys, time
        for t in open(sys.argv[1]).read().split():
            l = time.localtime(int(t))
            print(l.tm_year, l.tm_mon, l.tm_mday, l.tm_hour, l.tm_min, l.tm_sec, (l.tm_wday + 1) % 7, l.tm_gmtoff, l.tm_zone)
        """

    static let glibcMktime = """
        import sys, time
        for line in open(sys.argv[1]).read().splitlines():
            y, mo, d, h, mi, s = map(int, line.split())
            print(int(time.mktime((y, mo, d, h, mi, s, 0, 0, -1))))
        """

    @Test(
        .tags(.process),
        arguments: [
            "Europe/Zurich", "America/New_York", "Australia/Sydney", "Asia/Kolkata", "Asia/Kathmandu", "Europe/Dublin",
            "America/Sao_Paulo", "Pacific/Chatham", "America/St_Johns", "Africa/Casablanca", "Antarctica/Troll",
            "Pacific/Apia", "Asia/Tokyo", "America/Nuuk",
        ])
    func localTimesAreTheCLibrarys(_ name: String) throws {
        let zone = try #require(Zone(identifier: name))
        let instants = Self.instants(zone)
        let glibc = try Self.python(
            Self.glibcLocal, input: instants.map(String.init).joined(separator: " "), environment: ["TZ": ":" + name])
        try #require(glibc.count == instants.count)
        var differences = [String]()
        for (instant, expected) in zip(instants, glibc) {
            let ours = Self.fields(zone.local(Date(timeIntervalSince1970: Double(instant))))
            if ours != expected { differences.append("\(instant): \(ours) vs glibc \(expected)") }
        }
        #expect(differences.isEmpty, "\(differences.count) of \(instants.count): \(differences.prefix(5))")
    }

    @Test(
        .tags(.process),
        arguments: ["Europe/Zurich", "America/New_York", "Australia/Sydney", "Pacific/Chatham", "America/St_Johns"])
    func localTimesReadBackAsMktimeReadsThem(_ name: String) throws {
        let zone = try #require(Zone(identifier: name))
        // Around each change of 2000 to 2037, and then 2040 to 2060 by the footer's rule: skipped and doubled times.
        var walls = [Int64]()
        for change in zone.rules.transitions where change > 946_684_800 {
            let before = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(change - 1))))
            walls += stride(from: -5400, through: 5400, by: 900).map { change + before + Int64($0) }
        }
        for year in 2040...2060 {
            for month in [3, 4, 9, 10, 11] {
                walls += (0..<24 * 8).map { Self.wall(year, month, 1 + $0 / 24 * 4, $0 % 24, 30) }
            }
        }
        let lines = walls.map { wall -> String in
            let local = Zone.utc.local(Date(timeIntervalSince1970: Double(wall)))
            return "\(local.year) \(local.month) \(local.day) \(local.hour) \(local.minute) \(local.second)"
        }
        let glibc = try Self.python(
            Self.glibcMktime, input: lines.joined(separator: "\n"), environment: ["TZ": ":" + name])
        try #require(glibc.count == lines.count)
        var differences = [String]()
        for (line, expected) in zip(lines, glibc) {
            let f = line.split(separator: " ").map { Int($0)! }
            let ours = zone.date(year: f[0], month: f[1], day: f[2], hour: f[3], minute: f[4], second: f[5]).map {
                String(Int64($0.timeIntervalSince1970))
            }
            if ours != String(expected) { differences.append("\(line): \(ours ?? "nil") vs mktime \(expected)") }
        }
        #expect(differences.isEmpty, "\(differences.count) of \(lines.count): \(differences.prefix(5))")
    }

    static func wall(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int) -> Int64 {
        Int64(Zone.utc.date(year: year, month: month, day: day, hour: hour, minute: minute)!.timeIntervalSince1970)
    }

    @Test(.tags(.process)) func everyZoneOfTheDatabaseAgreesWithPythonsZoneinfo() throws {
        let names = try Self.python(
            "import sys, zoneinfo\nfor n in sorted(zoneinfo.available_timezones()): print(n)", input: "")
        try #require(names.count > 300)
        var lines = [String]()
        var zones = [Zone]()
        for name in names {
            // Read from its file even where `Zone(identifier:)` knows the name ("UTC", "GMT") without one.
            let zone = Zone(environment: ":" + name)
            try #require(zone.identifier == name && !zone.rules.offsets.isEmpty, "\(name)")
            zones.append(zone)
            lines.append(name + " " + Self.instants(zone).map(String.init).joined(separator: " "))
        }
        let program = """
            import sys, zoneinfo, datetime
            for line in open(sys.argv[1]).read().splitlines():
                name, *ts = line.split()
                z = zoneinfo.ZoneInfo(name)
                out = []
                for t in ts:
                    d = datetime.datetime.fromtimestamp(int(t), z)
                    out.append("%d,%s" % (d.utcoffset().total_seconds(), d.tzname()))
                print(" ".join(out))
            """
        let python = try Self.python(program, input: lines.joined(separator: "\n"))
        try #require(python.count == zones.count)
        var differences = [String]()
        for ((zone, line), expected) in zip(zip(zones, lines), python) {
            let instants = line.split(separator: " ").dropFirst()
            for (instant, theirs) in zip(instants, expected.split(separator: " ")) {
                let offset = zone.rules.offset(at: Int64(instant)!)
                if "\(offset.offset),\(offset.abbreviation)" != theirs {
                    differences.append("\(zone) \(instant): \(offset.offset),\(offset.abbreviation) vs \(theirs)")
                }
            }
        }
        let zonesDiffering = Set(differences.map { $0.prefix { $0 != " " } })
        #expect(
            differences.isEmpty,
            "\(differences.count) differences in \(zonesDiffering.sorted()): \(differences.prefix(8))")
    }

    @Test func theProcessZoneIsReadFromTZAsTheCLibraryReadsIt() throws {
        let summer = Date(timeIntervalSince1970: 1_782_000_000)  // 2026-06-21T00:00:00Z
        for value in [":Europe/Zurich", "Europe/Zurich", "CET-1CEST,M3.5.0,M10.5.0/3"] {
            let zone = Zone(environment: value)
            #expect(zone.identifier == (value.hasPrefix(":") ? String(value.dropFirst()) : value))
            #expect(zone.abbreviation(for: summer) == "CEST", "\(value)")
            #expect(zone.abbreviation(for: Date(timeIntervalSince1970: 1_798_128_000)) == "CET", "\(value)")
        }
        #expect(Zone(environment: "").identifier == "UTC")
        #expect(Zone(environment: ":Nowhere/Nothing").secondsFromGMT(for: summer) == 0)
        let absolute = Zone(environment: ":/usr/share/zoneinfo/Asia/Tokyo")
        #expect(absolute.abbreviation(for: summer) == "JST")
    }

    @Test(.tags(.process)) func withoutTZTheProcessZoneIsTheCLibrarysEtcLocaltime() throws {
        // Unset: /etc/localtime, as a child without TZ reads it through the C library.
        let local = Zone(environment: nil)
        let instants = Self.instants(local).filter { $0 > 0 }.prefix(2000)
        var environment = ProcessInfo.processInfo.environment
        environment["TZ"] = nil
        let glibc = try Self.python(
            Self.glibcLocal, input: instants.map(String.init).joined(separator: " "), environment: environment)
        let ours = instants.map { Self.fields(local.local(Date(timeIntervalSince1970: Double($0)))) }
        #expect(ours == glibc.map(String.init))
    }

    @Test func fixedOffsetsAndUTCNeedNoFile() throws {
        #expect(Zone(identifier: "+02:00") == Zone(offset: 7200))
        #expect(Zone(identifier: "-0930") == Zone(offset: -34_200))
        #expect(Zone(identifier: "+05") == Zone(offset: 18_000))
        for name in ["+2", "+02:0", "+24:00", "02:00", "+02:60", "+0a:00"] {
            #expect(Zone(identifier: name) == nil, "\(name)")
        }
        #expect(Zone(identifier: "Etc/UTC") == .utc)
        #expect(Zone(identifier: "zone.tab") == nil)
    }

    /// The C library's `TZ` is the process's: setting it for one conversion raced with every thread reading it.
    @Test func convertingTimesNeverSetsTZ() {
        let start = getenv("TZ").map { String(cString: $0) }
        let stop = Atomic(false)
        let seen = Mutex(Set<String?>())
        let watcher = Thread {
            while !stop.load(ordering: .relaxed) {
                let value = getenv("TZ").map { String(cString: $0) }
                if value != start { seen.withLock { _ = $0.insert(value) } }
            }
        }
        watcher.start()
        let zones = [Zone.utc, Zone(identifier: "Asia/Tokyo")!, Zone(identifier: "America/New_York")!, Zone.current]
        for second in 0..<20_000 {
            let zone = zones[second % zones.count]
            let local = zone.local(Date(timeIntervalSince1970: Double(second * 3_600)))
            _ = zone.date(year: local.year, month: local.month, day: local.day, hour: local.hour)
        }
        stop.store(true, ordering: .relaxed)
        #expect(seen.withLock { $0 }.isEmpty)
        #expect(getenv("TZ").map { String(cString: $0) } == start)
    }

    /// No source of chest sets `TZ` or asks the C library for a zone's times: they all go through `Zone`.
    @Test func noSourceSetsTZOrAsksTheCLibraryForLocalTimes() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
        try #require(files.contains("ChestCore/Support/Zone.swift"))
        var found = [String]()
        for file in files where file.hasSuffix(".swift") || file.hasSuffix(".c") || file.hasSuffix(".h") {
            let text = try String(contentsOfFile: sources.appendingPathComponent(file).path, encoding: .utf8)
            for call in [#"setenv("TZ""#, "unsetenv(\"TZ\"", "tzset(", "localtime_r(", "localtime(", "mktime("]
            where text.contains(call) {
                found.append("\(file): \(call)")
            }
        }
        #expect(found.isEmpty, "\(found)")
    }
}
