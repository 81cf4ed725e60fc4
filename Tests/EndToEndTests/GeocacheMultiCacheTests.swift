import ChestCore
import ChestTestSupport
import Foundation
import Testing

/// Issue 58, docs/QUEST.md "A course from a geocaching GPX": a multi-cache as its owner designed it (its stages
/// before its Final, its parking a note on its first page, its name and code as GSAK keeps them), and names kept on
/// the way back out.
@Suite(.realProcesses, .tags(.process), .timeLimit(.minutes(3)))
struct GeocacheMultiCacheTests {
    /// c:geo's GSAK export of GC3A5N1: the cache, then Final, Parking and QA 1..4.
    static let multi = GeocacheQuestTests.fixtures + "/liptov_gpx.gpx"
    static let cache = (49.025917, 19.562617)
    static let questions = [(49.027667, 19.555233), (49.0331, 19.556033), (49.040883, 19.55445), (49.04815, 19.557483)]
    static let final = (49.0478, 19.556717)

    /// The pages in the order the timeline opens them, by message and page, with the track point each opened at.
    static func openings(_ stdout: String) -> [(page: String, point: Int)] {
        stdout.split(separator: "\n").compactMap { line in
            guard let match = line.firstMatch(of: #/point\s+(\d+)\s+(\S+): page (\d) opened/#) else { return nil }
            return ("\(match.2)#\(match.3)", Int(match.1)!)
        }
    }

    /// Issue 58 "Done when": the GSAK multi-cache walked stages-then-Final opens each page when reached and the
    /// Final last, its parking a note on the cache's first page (not a page, not the Final's); a walk that finds the
    /// Final first opens it only after the last stage.
    @Test func aMultiCachesStagesComeBeforeItsFinalAndItsParkingIsANoteOnItsFirstPage() throws {
        let world = ChestHarness()
        let walk = world.root + "/walk.gpx"
        try GeocacheQuestTests.track([(49.0200, 19.5700), Self.cache] + Self.questions + [Self.final], to: walk)
        let walked = try world.chest(["simulate", Self.multi, walk])
        #expect(
            walked.status == 0 && walked.stdout.contains("6 of 6 pages opened."), "\(walked.stdout)\n\(walked.stderr)")
        let opened = Self.openings(walked.stdout)
        #expect(Set(opened.map(\.point)).count == 6, "each page opens where it is reached\n\(walked.stdout)")
        #expect(
            opened.map(\.page) == [
                "liptov_gpx-1#1", "liptov_gpx-1#2", "liptov_gpx-1#3", "liptov_gpx-1#4", "liptov_gpx-1#5",
                "liptov_gpx-2#1",
            ], "\(walked.stdout)")
        try GeocacheQuestTests.track([(49.0200, 19.5700), Self.cache, Self.final] + Self.questions, to: walk)
        let finalFirst = try world.chest(["simulate", Self.multi, walk])
        #expect(finalFirst.status == 0, "\(finalFirst.stdout)")
        #expect(Self.openings(finalFirst.stdout).last?.page == "liptov_gpx-2#1", "\(finalFirst.stdout)")

        let written = try world.chest(["quest", "from", Self.multi, "-o", "multi.quest"])
        #expect(written.status == 0, "\(written.stderr)")
        let quest = try String(contentsOfFile: world.root + "/multi.quest", encoding: .utf8)
        let pages = quest.components(separatedBy: "\npage: ").dropFirst().map { $0 }
        #expect(pages.count == 6, "\(quest)")
        #expect(quest.contains("# GC3A5N1 by sutarione, Multi-cache, line 13 of"), "\(quest)")
        #expect(pages.first?.hasPrefix("\"Medvedi\" chodnik nad Pavcinkou\n") == true, "\(quest)")
        let parking = "| Parking Area: 49.025500,19.562017 (GC3A5N1 Parking; bezplatné parkovanie / free of charge)"
        #expect(pages.first?.contains(parking) == true, "\(quest)")
        #expect(pages.filter { $0.contains("Parking Area") }.count == 1)
        #expect(
            pages.dropFirst().map { $0.prefix { $0 != "\n" } } == [
                "GC3A5N1 QA 1", "GC3A5N1 QA 2", "GC3A5N1 QA 3", "GC3A5N1 QA4", "GC3A5N1 Final",
            ])
        #expect(quest.contains("# FN3A5N1 Final Location, line"), "\(quest)")
    }

    /// Issue 58 "Done when": text as written. GSAK's inline HTML stays on its line, a one-cache file (Opencaching.de's)
    /// is titled by its cache, a Lab by its project with its stages' titles freed of it, and --lang picks the
    /// question line of the organiser's language.
    @Test func textAsWrittenTitlesByTheCacheAndAQuestionInTheOrganisersLanguage() throws {
        let world = ChestHarness()
        let multi = try world.chest(["quest", "from", Self.multi])
        #expect(
            multi.stdout.contains(
                "\n| QA1: Prvu suradnicu A ziskas spocitanim vsetkych cisel v texte o baze ciernej\n"),
            "\(multi.stdout)")
        #expect(!multi.stdout.contains("\n| : "), "\(multi.stdout)")
        let listing = try world.chest(["preview", GeocacheQuestTests.fixtures + "/oc120f5_gpx.gpx"])
        #expect(
            listing.status == 0 && listing.stdout.contains("\nSchwäbischer Wies´n Cache — from"), "\(listing.stdout)")
        #expect(!listing.stdout.contains("Cache listing generated from Opencaching.de"))
        let lab = try world.chest(["preview", GeocacheQuestTests.lab])
        #expect(lab.stdout.contains("\nStarý Prostějov - Wichterle a Kovářík a.s. (WIKOV) — from"), "\(lab.stdout)")
        #expect(lab.stdout.contains("  │ První Wichterlova továrna - WI\n"), "\(lab.stdout)")
        #expect(lab.stdout.contains("shown before the page opens): nalevo od vchodu hledej rozváděč firmy CETIN."))
        let english = try world.chest(["preview", "--lang", "en", GeocacheQuestTests.lab])
        #expect(
            english.stdout.contains(
                "shown before the page opens): look for CETIN's switchboard to the left of the entrance."),
            "\(english.stdout)")
        #expect(english.stdout.contains("  │ Úkol: nalevo od vchodu hledej rozváděč firmy CETIN."))
        var environment = world.environment()
        environment["LANG"] = "en_GB.UTF-8"
        let byLocale = try Subprocess.run(
            ChestHarness.products + "/chest", ["quest", "from", GeocacheQuestTests.lab], environment: environment,
            directory: world.root)
        #expect(byLocale.stdout.contains("  question: look for CETIN's switchboard"), "\(byLocale.stdout)")
        let wrong = try world.chest(["preview", "--lang", "english", GeocacheQuestTests.lab])
        #expect(wrong.status == 64 && wrong.stderr.contains("--lang is a language code such as de, en or cs"))
    }

    /// gpsbabel's unicsv of a GPX: its header's columns and its rows, by column name.
    static func gpsbabel(_ path: String) throws -> [[String: String]] {
        let csv = try Subprocess.run(
            "/usr/bin/gpsbabel", ["-i", "gpx", "-f", path, "-o", "unicsv", "-F", path + ".csv"],
            environment: ProcessInfo.processInfo.environment)
        #expect(csv.status == 0, "\(csv.stderr)")
        let rows = try String(contentsOfFile: path + ".csv", encoding: .utf8).split(whereSeparator: \.isNewline).map(
            ExportTests.fields)
        guard let header = rows.first else { return [] }
        return rows.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    static func xmllint(_ arguments: [String]) throws -> Subprocess.Outcome {
        try Subprocess.run("/usr/bin/xmllint", arguments, environment: ProcessInfo.processInfo.environment)
    }

    /// Issue 58 "Done when": the export names every waypoint as the source did (distinct in their first 14
    /// characters), in a GPX the schema accepts and gpsbabel reads; --geocaching writes caches and additional
    /// waypoints a geocaching tool imports (gpsbabel reads their type and code), which chest reads back as the same
    /// course.
    @Test func theExportNamesEveryWaypointAsTheSourceDidAndGeocachingToolsReadItBack() throws {
        let world = ChestHarness()
        let names = ["GC3A5N1", "Q13A5N1", "Q23A5N1", "Q33A5N1", "Q43A5N1", "FN3A5N1"]
        let sealed = world.root + "/multi.gpx"
        let exported = try world.chest(["export", "--gpx", "--sealed", Self.multi, "-o", sealed], user: "organiser")
        #expect(exported.status == 0, "\(exported.stderr)")
        let schema = try Self.xmllint(["--noout", "--schema", ExportTests.root + "/docs/gpx-1.1-subset.xsd", sealed])
        #expect(schema.status == 0, "\(schema.stderr)")
        #expect(try Self.gpsbabel(sealed).map { $0["Name"] ?? "" } == names)
        let lab = world.root + "/lab.gpx"
        #expect(try world.chest(["export", "--gpx", "--sealed", GeocacheQuestTests.lab, "-o", lab]).status == 0)
        let labNames = try Self.gpsbabel(lab).map { $0["Name"] ?? "" }
        #expect(labNames == (0...4).map { "GC8DAEP-\($0)" } && Set(labNames.map { $0.prefix(14) }).count == 5)

        let caches = world.root + "/caches.gpx"
        let written = try world.chest(["export", "--gpx", "--sealed", "--geocaching", Self.multi, "-o", caches])
        #expect(written.status == 0, "\(written.stderr)")
        #expect(try Self.xmllint(["--noout", caches]).status == 0)
        let read = try Self.gpsbabel(caches)
        #expect(read.map { $0["Name"] ?? "" } == names, "\(read)")
        #expect(
            read.first?["Type"] == "Multi-cache" && read.first?["Hint"] == "medzi kmenmi mensieho bratranca", "\(read)")
        #expect(read.last?["Symbol"] == "Final Location", "\(read)")
        let again = try world.chest(["quest", "from", caches])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("\n# GC3A5N1 by "), "\(again.stdout)")
        #expect(
            again.stdout.components(separatedBy: "\n  waypoint: ").dropFirst().map {
                String($0.prefix { $0 != " " && $0 != "\n" })
            }
                == names, "\(again.stdout)")
        #expect(again.stdout.components(separatedBy: "| Parking Area: 49.025500,19.562017").count == 2)
        let refused = try world.chest(["export", "--gpx", "--geocaching", Self.multi])
        #expect(refused.status == 64 && refused.stderr.contains("chest export --gpx --sealed --geocaching QUEST"))
    }
}
