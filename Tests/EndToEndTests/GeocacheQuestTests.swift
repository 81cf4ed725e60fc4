import ChestCore
import ChestTestSupport
import Foundation
import Testing

/// docs/QUEST.md "A course from a geocaching GPX": preview, simulate, compose --quest and chest quest from take a
/// Pocket Query, an Adventure Lab export, a GPX 1.1 export with groundspeak extensions, a TerraCaching and a Waymarking
/// export as they are.
@Suite(.realProcesses, .tags(.process), .timeLimit(.minutes(3)))
struct GeocacheQuestTests {
    static let fixtures = GPSLogs.packageRoot.path + "/Tests/Fixtures/geocaching"
    static let course = fixtures + "/cgeo_gpx11_course.gpx"
    static let lab = fixtures + "/lab_stary_prostejov.gpx"
    static let pocketQuery = fixtures + "/gc1bkp3_gpx100.gpx"
    static let terraCaching = fixtures + "/tc99un_gpx.gpx"
    static let waymarking = fixtures + "/waymarking_gpx.gpx"

    /// A GPX track that stays at each of these points for three fixes, five seconds apart (a place latches after
    /// three fixes in a row inside it).
    static func track(_ stops: [(Double, Double)], to path: String) throws {
        let points = stops.flatMap { [$0, $0, $0] }
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let formatter = ISO8601DateFormatter()
        let trkpts = points.enumerated().map { index, point in
            "<trkpt lat=\"\(point.0)\" lon=\"\(point.1)\"><time>\(formatter.string(from: start.addingTimeInterval(Double(index) * 5)))</time></trkpt>"
        }
        try
            ("<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n"
            + trkpts.joined(separator: "\n") + "\n</trkseg></trk></gpx>\n").write(
                toFile: path, atomically: true, encoding: .utf8)
    }

    static let stages = [(47.376850, 8.541700), (47.377300, 8.542600), (47.377854, 8.543109)]
    static let labStages = [
        (49.474266666667, 17.125233333333), (49.473683333333, 17.122350000000), (49.475250000000, 17.129100000000),
        (49.472600000000, 17.124566666667), (49.473383333333, 17.120600000000),
    ]

    @Test func previewShowsNamesQuestionsHintsAndWhatWasLeftOut() throws {
        let world = ChestHarness()
        let outcome = try world.chest(["preview", Self.course])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        for expected in [
            "Hill walk caches — from", "  │ The fountain", "  │ - Bring a pen", "  │ Halfway up",
            "  question (in the clear; shown before the page opens): How many steps has the old stair?",
            "Under the third stone – left side", "Between the roots",
            "  │ Parking Area: 47.377100,8.542400 (Car park; Free on Sundays)",
        ] {
            #expect(outcome.stdout.contains(expected), "\(expected)\n\(outcome.stdout)")
        }
        #expect(!outcome.stdout.contains("alert(1)"))
        #expect(
            outcome.stderr.contains(
                "chest: warning: \(Self.course):68: S19ZZ02 (Final Location) has no usable coordinates"),
            "\(outcome.stderr)")
        let lab = try world.chest(["preview", Self.lab])
        #expect(lab.status == 0, "\(lab.stderr)")
        #expect(
            lab.stdout.contains(
                "question (in the clear; shown before the page opens): nalevo od vchodu hledej rozváděč firmy CETIN."))
        let pq = try world.chest(["preview", Self.pocketQuery])
        #expect(pq.status == 0, "\(pq.stderr)")
        #expect(
            pq.stdout.contains("  │ Die Schatzinsel / treasure island")
                && pq.stdout.contains("Der Klassiker schlechthin"))
    }

    @Test func aWalkPastEveryStageOpensEveryPageAndOneThatSkipsAStageDoesNot() throws {
        let world = ChestHarness()
        let all = world.root + "/all.gpx"
        let skipping = world.root + "/skip.gpx"
        try Self.track([(47.3760, 8.5410)] + Self.stages, to: all)
        try Self.track([(47.3760, 8.5410), Self.stages[0], Self.stages[2]], to: skipping)
        let walked = try world.chest(["simulate", Self.course, all])
        #expect(walked.status == 0, "\(walked.stdout)\n\(walked.stderr)")
        #expect(walked.stdout.contains("3 of 3 pages opened."), "\(walked.stdout)")
        let skipped = try world.chest(["simulate", Self.course, skipping])
        #expect(skipped.status == 1)
        #expect(skipped.stdout.contains("1 of 3 pages opened."), "\(skipped.stdout)")
        #expect(skipped.stdout.contains("  cgeo_gpx11_course page 2:"), "\(skipped.stdout)")

        let labWalk = world.root + "/lab.gpx"
        try Self.track(Self.labStages, to: labWalk)
        let lab = try world.chest(["simulate", Self.lab, labWalk])
        #expect(lab.status == 0 && lab.stdout.contains("5 of 5 pages opened."), "\(lab.stdout)\n\(lab.stderr)")
        try Self.track(Array(Self.labStages.dropLast(2)) + [Self.labStages[4]], to: labWalk)
        // A Lab is played in any order: the stage skipped is the only page that stays shut.
        let labSkipped = try world.chest(["simulate", Self.lab, labWalk])
        #expect(labSkipped.status == 1 && labSkipped.stdout.contains("4 of 5 pages opened."), "\(labSkipped.stdout)")
        let labChained = try world.chest(["simulate", "--in-order", Self.lab, labWalk])
        #expect(labChained.status == 1 && labChained.stdout.contains("3 of 5 pages opened."), "\(labChained.stdout)")
    }

    /// The pages in the order the timeline opens them, with the track point each opened at.
    static func openings(_ stdout: String) -> [(page: Int, point: Int)] {
        stdout.split(separator: "\n").compactMap { line in
            guard let match = line.firstMatch(of: #/point\s+(\d+)\s.*: page (\d) opened/#) else { return nil }
            return (Int(match.2)!, Int(match.1)!)
        }
    }

    /// Issue 58: an Adventure Lab walked in reverse opens each stage as it is reached, as its author meant (any
    /// order, the Lab's default, said by preview, simulate, compose and quest from); `--in-order` chains the stages,
    /// so the same walk opens nothing until the first stage and then everything at once.
    @Test func aLabWalkedInReverseOpensEachStageAsItIsReached() throws {
        let world = ChestHarness()
        let reverse = world.root + "/reverse.gpx"
        try Self.track([(49.4650, 17.1100)] + Self.labStages.reversed(), to: reverse)
        let walked = try world.chest(["simulate", Self.lab, reverse])
        #expect(walked.status == 0 && walked.stdout.contains("5 of 5 pages opened."), "\(walked.stdout)")
        #expect(
            walked.stdout.contains("\npages in any order (each page opens when its own locks hold).\n"),
            "\(walked.stdout)")
        let opened = Self.openings(walked.stdout)
        #expect(opened.map(\.page) == [5, 4, 3, 2, 1], "\(walked.stdout)")
        #expect(Set(opened.map(\.point)).count == 5, "\(walked.stdout)")
        let chained = try world.chest(["simulate", "--in-order", Self.lab, reverse])
        #expect(chained.status == 0, "\(chained.stdout)")
        #expect(chained.stdout.contains("pages in sequence"), "\(chained.stdout)")
        let cascade = Self.openings(chained.stdout)
        #expect(cascade.map(\.page) == [1, 2, 3, 4, 5] && Set(cascade.map(\.point)).count == 1, "\(chained.stdout)")

        let preview = try world.chest(["preview", Self.lab])
        #expect(preview.stdout.contains("Pages in any order (each page opens when its own locks hold)."))
        #expect(!preview.stdout.contains("after: page"), "\(preview.stdout)")
        let written = try world.chest(["quest", "from", Self.lab, "-o", "lab.quest"])
        #expect(
            written.status == 0 && written.stderr.contains("5 pages in 1 message; pages in any order"),
            "\(written.stderr)")
        let quest = try String(contentsOfFile: world.root + "/lab.quest", encoding: .utf8)
        #expect(quest.contains("\norder: any\n") && !quest.contains("after="), "\(quest)")
        let inOrder = try world.chest(["quest", "from", "--in-order", Self.lab, "-o", "chain.quest"])
        #expect(inOrder.status == 0 && inOrder.stderr.contains("pages in sequence"), "\(inOrder.stderr)")
        let copy = world.root + "/lab.gpx"
        try FileManager.default.copyItem(atPath: Self.lab, toPath: copy)
        let composed = try world.chest(["compose", "--quest", copy, "--seal-cost", "interactive", "-o", "lab"])
        #expect(composed.status == 0 && composed.stderr.contains("chest: pages in any order"), "\(composed.stderr)")
        let refused = try world.chest(["preview", "--any-order", "lab.quest"])
        #expect(refused.status == 1 && refused.stderr.contains("--any-order sets the course of a geocaching GPX"))
        let both = try world.chest(["preview", "--any-order", "--in-order", Self.lab])
        #expect(both.status == 64 && both.stderr.contains("--in-order and --any-order go one at a time"))
    }

    /// --radius sets every place of a GPX in preview, simulate and compose --quest: a walk that stops 40 m from each
    /// stage opens nothing at the default 30 m and every page at 50 m. It is refused for a quest file, whose locks say
    /// their radius, and under 10 m.
    @Test func theRadiusOfAGPXsPlacesIsTheOrganisers() throws {
        let world = ChestHarness()
        let near = world.root + "/near.gpx"
        try Self.track([(47.3760, 8.5410)] + Self.stages.map { ($0.0 + 0.00036, $0.1) }, to: near)
        let tight = try world.chest(["simulate", Self.course, near])
        #expect(tight.status == 1 && tight.stdout.contains("0 of 3 pages opened."), "\(tight.stdout)\n\(tight.stderr)")
        let wide = try world.chest(["simulate", "--radius", "50m", Self.course, near])
        #expect(wide.status == 0 && wide.stdout.contains("3 of 3 pages opened."), "\(wide.stdout)\n\(wide.stderr)")
        let preview = try world.chest(["preview", "--radius", "0.05km", Self.course])
        #expect(
            preview.status == 0 && preview.stdout.contains("location: within 50 m of 47.37685, 8.5417"),
            "\(preview.stdout)")
        // A copy: compose --quest records the IDs it chose beside the quest, which must not be the repository's fixture.
        let copy = world.root + "/course.gpx"
        try FileManager.default.copyItem(atPath: Self.course, toPath: copy)
        let composed = try world.chest(
            [
                "compose", "--quest", copy, "--radius", "50m", "--seal-cost", "interactive",
                "-o", world.root + "/out",
            ], user: "organiser")
        #expect(composed.status == 0, "\(composed.stderr)")
        let quest = world.root + "/course.quest"
        #expect(try world.chest(["quest", "from", Self.course, "-o", quest]).status == 0)
        let refused = try world.chest(["preview", "--radius", "50m", quest])
        #expect(
            refused.status == 1 && refused.stderr.contains("--radius sets the places of a geocaching GPX"),
            "\(refused.stderr)")
        let small = try world.chest(["simulate", "--radius", "5m", Self.course, near])
        #expect(
            small.status == 64 && small.stderr.contains("--radius is a distance of 10 m or more"), "\(small.stderr)")
    }

    @Test func composeBuildsEveryKindAndQuestFromWritesAQuestThatComposes() throws {
        let world = ChestHarness()
        for gpx in [Self.course, Self.lab, Self.pocketQuery] {
            let name = URL(fileURLWithPath: gpx).deletingPathExtension().lastPathComponent
            let copy = world.root + "/" + name + ".gpx"
            try FileManager.default.copyItem(atPath: gpx, toPath: copy)
            let built = try world.chest([
                "compose", "--seal-cost", "interactive", "--quest", copy, "-o", world.root + "/" + name,
            ])
            #expect(built.status == 0, "\(built.stderr)")
            let message = try MessageFile.decode(
                Data(contentsOf: URL(fileURLWithPath: world.root + "/\(name)/\(name).locked")))
            #expect(message.pages.count == (gpx == Self.pocketQuery ? 1 : gpx == Self.lab ? 5 : 3))
        }
        let written = try world.chest(["quest", "from", Self.course, "-o", "hill.quest", "--radius", "40m"])
        #expect(written.status == 0, "\(written.stderr)")
        let quest = try String(contentsOfFile: world.root + "/hill.quest", encoding: .utf8)
        #expect(quest.contains("# GC9ZZ02 by Hill & Dale, Multi-cache, line 47 of \(Self.course)\npage: Halfway up\n"))
        #expect(quest.contains("  lock: location=47.377300,8.542600/40m\n  hint: Between the roots\n"))
        #expect(quest.contains("\norder: sequence\n"))
        // The organiser adds an answer, and the quest composes.
        try quest.replacingOccurrences(
            of: "  question: How many steps has the old stair?\n",
            with: "  question: How many steps has the old stair?\n  lock: answer=42\n"
        )
        .write(toFile: world.root + "/hill.quest", atomically: true, encoding: .utf8)
        let composed = try world.chest(["compose", "--seal-cost", "interactive", "--quest", "hill.quest", "-o", "hill"])
        #expect(composed.status == 0, "\(composed.stderr)")
        let message = try MessageFile.decode(
            Data(contentsOf: URL(fileURLWithPath: world.root + "/hill/cgeo_gpx11_course.locked")))
        #expect(message.title == "Hill walk caches" && message.pages[1].question == "How many steps has the old stair?")
        // Not replaced without --force.
        let again = try world.chest(["quest", "from", Self.course, "-o", "hill.quest"])
        #expect(again.status == 1 && again.stderr.contains("hill.quest"))
    }

    /// TerraCaching's cache and its stage (its parking and trail points are lines of the cache's page), and a waymark.
    static let terraStages = [(43.88797, -110.64012), (43.88403, -110.63645)]

    @Test func aTerraCachingAndAWaymarkingExportArePreviewedWalkedComposedAndWrittenAsQuests() throws {
        let world = ChestHarness()
        let terra = try world.chest(["preview", Self.terraCaching])
        #expect(terra.status == 0 && terra.stderr.isEmpty, "\(terra.stderr)")
        for expected in [
            "Page 1 — locked", "  │ The Lodges at Heron Pond\n", "  │ Jackson Lake is the largest body of water",
            "  │ Parking and Trailhead: 43.901470,-110.641930 (Turn left by the Visitor's Center and park by the trailhead sign)",
            "  hint 1: follow the directions, remember the numbers, do the math", "Page 2 — locked", "  │ Stage Two\n",
            "    after: page 1 of message tc99un_gpx",
        ] {
            #expect(terra.stdout.contains(expected), "\(expected)\n\(terra.stdout)")
        }
        #expect(!terra.stdout.contains("Page 3") && !terra.stdout.contains("&nbsp;") && !terra.stdout.contains("<div"))
        let waymark = try world.chest(["preview", Self.waymarking])
        #expect(waymark.status == 0 && waymark.stderr.isEmpty, "\(waymark.stderr)")
        for expected in [
            "Roman water pipe Kornwestheim — from", "location: within 30 m of 48.86422, 9.1836",
            "  │ Roman water pipe Kornwestheim\n",
            "  │ Roman water pipe Kornwestheim - A water fountain from an originally Roman water pipe.",
        ] {
            #expect(waymark.stdout.contains(expected), "\(expected)\n\(waymark.stdout)")
        }

        let walk = world.root + "/walk.gpx"
        try Self.track([(43.9014, -110.6419)] + Self.terraStages, to: walk)
        let walked = try world.chest(["simulate", Self.terraCaching, walk])
        #expect(
            walked.status == 0 && walked.stdout.contains("2 of 2 pages opened."), "\(walked.stdout)\n\(walked.stderr)")
        try Self.track([(43.9014, -110.6419), Self.terraStages[1]], to: walk)
        let skipped = try world.chest(["simulate", Self.terraCaching, walk])
        #expect(skipped.status == 1 && skipped.stdout.contains("0 of 2 pages opened."), "\(skipped.stdout)")

        for (gpx, pages) in [(Self.terraCaching, 2), (Self.waymarking, 1)] {
            let name = URL(fileURLWithPath: gpx).deletingPathExtension().lastPathComponent
            let written = try world.chest(["quest", "from", gpx, "-o", name + ".quest"])
            #expect(written.status == 0, "\(written.stderr)")
            let quest = try String(contentsOfFile: world.root + "/\(name).quest", encoding: .utf8)
            #expect(
                quest.contains(
                    gpx == Self.terraCaching
                        ? "# TC99UN by dexter, Virtual, line 22 of \(gpx)\npage: The Lodges at Heron Pond\n"
                        : "# WM7BM7, line 12 of \(gpx)\npage: Roman water pipe Kornwestheim\n"), "\(quest)")
            let composed = try world.chest([
                "compose", "--seal-cost", "interactive", "--quest", name + ".quest", "-o", name,
            ])
            #expect(composed.status == 0, "\(composed.stderr)")
            let message = try MessageFile.decode(
                Data(contentsOf: URL(fileURLWithPath: world.root + "/\(name)/\(name).locked")))
            #expect(message.pages.count == pages)
        }
    }

    @Test func filesThatAreNotGPXGetAClearAnswerAndNothingIsWritten() throws {
        let world = ChestHarness()
        try "<!DOCTYPE html>\n<html><body>Not found</body></html>\n".write(
            toFile: world.root + "/page.gpx", atomically: true, encoding: .utf8)
        let from = try world.chest(["quest", "from", "page.gpx", "-o", "page.quest"])
        #expect(from.status == 1)
        #expect(
            from.stderr == "chest: page.gpx:2: not a GPX file: its root element is <html>, not <gpx>\n",
            "\(from.stderr)")
        #expect(!FileManager.default.fileExists(atPath: world.root + "/page.quest"))
        let composed = try world.chest(["compose", "--quest", "page.gpx", "-o", "out"])
        #expect(composed.status == 1 && composed.stderr.contains("not a GPX file"))
        #expect(!FileManager.default.fileExists(atPath: world.root + "/out"))
        try "<gpx version=\"1.1\"><wpt><name>Nowhere</name></wpt></gpx>".write(
            toFile: world.root + "/empty.gpx", atomically: true, encoding: .utf8)
        let empty = try world.chest(["preview", "empty.gpx"])
        #expect(
            empty.status == 1 && empty.stderr.contains("empty.gpx: no cache or waypoint with coordinates"),
            "\(empty.stderr)")
    }
}
