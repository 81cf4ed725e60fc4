import ChestIO
import Foundation
import Testing

@testable import ChestCore

/// docs/QUEST.md "A course from a geocaching GPX": the pure mapping from the waypoints a GPX holds to the quest text
/// that preview, simulate, compose --quest and chest quest from share.
@Suite struct GeocacheCourseTests {
    static func cache(
        _ code: String, line: Int, _ latitude: Double, _ longitude: Double, name: String? = nil,
        type: String = "Geocache|Traditional Cache"
    ) -> GeocacheWaypoint {
        var waypoint = GeocacheWaypoint(
            code: code, line: line, coordinate: Coordinate(latitude: latitude, longitude: longitude))
        waypoint.cacheName = name
        waypoint.type = type
        return waypoint
    }

    func parse(_ text: String) throws -> Quest {
        try QuestParser(
            timeZone: Zone(identifier: "UTC")!, pageText: { _ in throw CocoaError(.fileNoSuchFile) },
            waypoint: { _, _ in throw CocoaError(.fileNoSuchFile) }
        ).parse(text)
    }

    @Test func eachCacheIsAPageAtItsPointWaitingForTheOneBefore() throws {
        var first = Self.cache("GC1", line: 3, 47.1, 8.1, name: "The oak")
        first.owner = "Alice"
        first.shortDescription = "Under the oak."
        first.longDescription = "Look up.\n\n\n  Then down.  "
        first.hints = "Behind\nthe bark"
        let second = Self.cache("GC2", line: 30, 47.2, 8.2, name: "The mill")
        let (text, notes) = GeocacheCourse(waypoints: [first, second], fileName: "walks/oaks.gpx", name: "Oak walk")
            .quest()
        #expect(notes.isEmpty)
        #expect(
            text.contains(
                "# GC1 by Alice, line 3 of walks/oaks.gpx\npage: The oak\n|\n| Under the oak.\n|\n| Look up.\n|\n| Then down.\n"
            ))
        let quest = try parse(text)
        #expect(quest.messages.map(\.name) == ["oaks"])
        #expect(quest.messages[0].title == "Oak walk")
        let pages = quest.messages[0].pages
        #expect(pages.map(\.text) == ["The oak\n\nUnder the oak.\n\nLook up.\n\nThen down.", "The mill"])
        #expect(
            pages[0].setA.map(\.spec) == [
                .spec(.lock(.location(center: Coordinate(latitude: 47.1, longitude: 8.1), radius: 30)))
            ])
        #expect(
            pages[1].setA.map(\.spec) == [
                .spec(.lock(.location(center: Coordinate(latitude: 47.2, longitude: 8.2), radius: 30)))
            ])
        #expect(quest.order == .sequence && text.contains("\norder: sequence\n"))
        let id = MessageID(bytes: [UInt8](repeating: 9, count: 16))
        #expect(
            quest.drafts(ids: ["oaks": id])[0].pages[1].setA.last == .lock(.after(PageLink(message: id, page: 1))))
        #expect(pages[0].hints.map(\.text) == ["Behind the bark"])
        #expect(pages[1].hints.isEmpty)
    }

    @Test func aLongCourseIsSplitIntoMessagesOfFiveEachWaitingForTheLastPageBefore() throws {
        let caches = (1...12).map {
            Self.cache("GC\($0)", line: $0 * 10, 47 + Double($0) / 100, 8, name: "Cache \($0)")
        }
        let quest = try parse(GeocacheCourse(waypoints: caches, fileName: "big pq.gpx", radius: 50).quest().text)
        #expect(quest.messages.map(\.name) == ["big-pq-1", "big-pq-2", "big-pq-3"])
        #expect(quest.messages.map(\.title) == ["big pq (1 of 3)", "big pq (2 of 3)", "big pq (3 of 3)"])
        #expect(quest.messages.map(\.pages.count) == [5, 5, 2])
        #expect(quest.messages[1].pages[0].setA.last?.spec == .after(message: "big-pq-1", page: 5))
        #expect(quest.messages[2].pages[1].setA.count == 1 && quest.order == .sequence)
        let any = GeocacheCourse(waypoints: caches, fileName: "big pq.gpx", radius: 50)
        var anyOrder = any
        anyOrder.order = .any
        let free = try parse(anyOrder.quest().text)
        #expect(free.order == .any)
        #expect(free.messages.allSatisfy { $0.pages.allSatisfy { $0.setA.count == 1 } })
        #expect(
            quest.messages[2].pages[1].setA.first?.spec
                == .spec(.lock(.location(center: Coordinate(latitude: 47.12, longitude: 8), radius: 50))))
    }

    /// Issue 58: an Adventure Lab is played in any order unless its text says it is sequential (or linear); a file
    /// of caches keeps the file's order; the organiser's `--in-order`/`--any-order` (`order`) decides over both.
    @Test func aLabIsInAnyOrderUnlessItSaysItIsSequential() throws {
        let stages = (1...3).map { index in
            var stage = Self.cache(
                "GC8LAB-\(index)", line: index * 10, 49 + Double(index) / 100, 17, type: "Geocache|Lab Cache")
            stage.cacheName = "Stage \(index)"
            stage.shortDescription = "Walk the old town."
            return stage
        }
        let lab = try parse(GeocacheCourse(waypoints: stages, fileName: "lab.gpx").quest().text)
        #expect(lab.order == .any)
        #expect(lab.messages[0].pages.allSatisfy { !$0.setA.contains { $0.kind == .after } })
        var sequential = stages
        sequential[0].shortDescription = "This Adventure is sequential: play its stages in order."
        #expect(try parse(GeocacheCourse(waypoints: sequential, fileName: "lab.gpx").quest().text).order == .sequence)
        var forced = GeocacheCourse(waypoints: stages, fileName: "lab.gpx")
        forced.order = .sequence
        let (text, _) = forced.quest()
        let chained = try parse(text)
        #expect(text.contains("# each waiting for the one before (--in-order)") && chained.order == .sequence)
    }

    /// Issue 58: a file of one cache is titled by its cache, not by the file's own name; a Lab by its project, which
    /// its stages' titles no longer repeat, before their own name or after it.
    @Test func aOneCacheFileIsTitledByItsCacheAndALabByItsProject() throws {
        var cache = Self.cache("OC120F5", line: 9, 48.9, 9.1, name: "Schwäbischer Wies´n Cache")
        cache.longDescription = "Viel Erfolg."
        var parking = GeocacheWaypoint(
            code: "PK120F5", line: 30, coordinate: Coordinate(latitude: 48.91, longitude: 9.1))
        parking.type = "Waypoint|Parking Area"
        let one = try parse(
            GeocacheCourse(
                waypoints: [cache, parking], fileName: "oc.gpx", name: "Cache listing generated from Opencaching.de"
            )
            .quest().text)
        #expect(one.messages[0].title == "Schwäbischer Wies´n Cache")
        func lab(_ names: [String]) -> [GeocacheWaypoint] {
            names.enumerated().map { index, name in
                Self.cache(
                    "GCLAB-\(index)", line: index * 10, 48.1 + Double(index) / 100, 11.5, name: name,
                    type: "Geocache|Lab Cache")
            }
        }
        let before = try parse(
            GeocacheCourse(
                waypoints: lab([
                    "Starý Prostějov - Wichterle a Kovářík a.s. (WIKOV) / První Wichterlova továrna - WI",
                    "Starý Prostějov - Wichterle a Kovářík a.s. (WIKOV) / Druhá Wichterlova továrna - WII",
                ]), fileName: "lab.gpx", name: "Testdata"
            ).quest().text)
        #expect(before.messages[0].title == "Starý Prostějov - Wichterle a Kovářík a.s. (WIKOV)")
        #expect(
            before.messages[0].pages.map(\.text) == [
                "První Wichterlova továrna - WI", "Druhá Wichterlova továrna - WII",
            ])
        let after = try parse(
            GeocacheCourse(
                waypoints: lab([
                    "01_Munich Olympic Walk Of Stars_Updated-Project MUNICH2014 - Mia san Giga! Olympiapark",
                    "02_Olympic Tower_Updated-Project MUNICH2014 - Mia san Giga! Olympiapark",
                    "03_Sea Life Stars_Updated-Project MUNICH2014 - Mia san Giga! Olympiapark",
                ]), fileName: "giga.gpx"
            ).quest().text)
        #expect(after.messages[0].title == "Updated-Project MUNICH2014 - Mia san Giga! Olympiapark")
        #expect(
            after.messages[0].pages.map(\.text) == [
                "01_Munich Olympic Walk Of Stars", "02_Olympic Tower", "03_Sea Life Stars",
            ])
        // Names that share nothing at a separator are kept whole.
        let apart = try parse(
            GeocacheCourse(waypoints: lab(["Old mill", "Old millpond"]), fileName: "l.gpx").quest().text)
        #expect(apart.messages[0].pages.map(\.text) == ["Old mill", "Old millpond"])
    }

    /// Issue 58: a stage with a question line in several languages asks the one in the organiser's language; the
    /// other stays in the page's text.
    @Test func theQuestionIsTheOneInTheOrganisersLanguage() throws {
        var stage = Self.cache("GC9", line: 3, 47.1, 8.1, name: "Stufen")
        stage.longDescription = "Intro\nFrage: Wie viele Stufen?\nQuestion: How many steps?"
        var lab = Self.cache("GCLAB-1", line: 5, 49.47, 17.12, name: "Stage", type: "Geocache|Lab Cache")
        lab.longDescription = "[CZ]\nÚkol: hledej ceduli.\n[EN]\nTask: look for the sign."
        func questions(_ language: String?) throws -> [String?] {
            var course = GeocacheCourse(waypoints: [stage, lab], fileName: "q.gpx")
            course.language = language
            return try parse(course.quest().text).messages[0].pages.map(\.question)
        }
        #expect(try questions(nil) == ["Wie viele Stufen?", "hledej ceduli."])
        #expect(try questions("en") == ["How many steps?", "look for the sign."])
        #expect(try questions("de") == ["Wie viele Stufen?", "hledej ceduli."])
        #expect(try questions("cs") == ["Wie viele Stufen?", "hledej ceduli."])
        var english = GeocacheCourse(waypoints: [stage], fileName: "q.gpx")
        english.language = "en"
        #expect(try parse(english.quest().text).messages[0].pages[0].text.contains("Frage: Wie viele Stufen?"))
    }

    @Test func titleComesFromTheCacheNameElseUrlnameElseName() {
        var waypoint = GeocacheWaypoint(code: "GC5", line: 1, coordinate: nil)
        #expect(waypoint.title == "GC5")
        waypoint.urlName = "From urlname"
        #expect(waypoint.title == "From urlname")
        waypoint.cacheName = "  From\nthe cache  "
        #expect(waypoint.title == "From the cache")
    }

    @Test func aLabStageAsksItsQuestionLineElseItsTaskLine() throws {
        var lab = Self.cache("GCLAB-1", line: 5, 49.47, 17.12, name: "Stage", type: "Geocache|Lab Cache")
        lab.longDescription = "[CZ]\nÚkol: hledej ceduli.\n[EN]\nTask: look for the sign."
        var asked = lab
        asked.longDescription = "Intro\nFrage: Wie viele Stufen?\nQuestion: How many steps?"
        var plain = Self.cache("GC7", line: 9, 49.48, 17.13, name: "No lab")
        plain.longDescription = "Task: this is a traditional, not a question."
        let quest = try parse(GeocacheCourse(waypoints: [lab, asked, plain], fileName: "lab.gpx").quest().text)
        #expect(quest.messages[0].pages.map(\.question) == ["hledej ceduli.", "Wie viele Stufen?", nil])
    }

    @Test func pointsGoIntoTheirCachesPageAndStagesArePages() throws {
        var parking = GeocacheWaypoint(
            code: "PK0001", line: 2, coordinate: Coordinate(latitude: 47.01, longitude: 8.01))
        parking.type = "Waypoint|Parking Area"
        parking.description = "Car park"
        parking.comment = "Free on Sundays"
        var stage = GeocacheWaypoint(code: "S10001", line: 8, coordinate: Coordinate(latitude: 47.02, longitude: 8.02))
        stage.type = "Waypoint|Stages of a Multicache"
        stage.description = "Station 1"
        stage.comment = "Count the windows."
        var blank = GeocacheWaypoint(code: "FN0001", line: 12, coordinate: nil)
        blank.type = "Waypoint|Final Location"
        blank.coordinateProblem = "0,0"
        let cache = Self.cache("GC0001", line: 4, 47.0, 8.0, name: "The multi")
        let (text, notes) = GeocacheCourse(waypoints: [parking, cache, stage, blank], fileName: "m.gpx").quest()
        let pages = try parse(text).messages[0].pages
        #expect(
            pages.map(\.text) == [
                "The multi\n\nParking Area: 47.010000,8.010000 (Car park; Free on Sundays)",
                "Station 1\n\nCount the windows.",
            ])
        #expect(
            notes == [
                GeocacheCourse.Note(
                    line: 12, "FN0001 (Final Location) has no usable coordinates (0,0); left out, not guessed")
            ])
    }

    /// Issue 58: a multi-cache's additional waypoints in any file order (GSAK: Final, Parking, stages) become the
    /// cache's page, its stages in their own order (a reference point too), the Final last; its parking and trailhead
    /// are notes on the cache's page, never on the Final's; another cache's waypoints stay with theirs.
    @Test func aMultisStagesComeFirstItsFinalLastAndItsParkingOnItsFirstPage() throws {
        func additional(_ code: String, line: Int, _ type: String, _ description: String) -> GeocacheWaypoint {
            var waypoint = GeocacheWaypoint(
                code: code, line: line, coordinate: Coordinate(latitude: 47 + Double(line) / 1000, longitude: 8))
            waypoint.type = "Waypoint|" + type
            waypoint.description = description
            return waypoint
        }
        var multi = Self.cache(
            "GC0002", line: 1, 47.0, 8.0, name: "The multi by Owner (2,5/2)", type: "Geocache|Multi-cache")
        multi.placedBy = "Owner"
        let waypoints = [
            multi,
            additional("FN0002", line: 10, "Final Location", "The box"),
            additional("PK0002", line: 20, "Parking Area", "Car park"),
            additional("Q10002", line: 30, "Virtual Stage", "QA 1"),
            additional("RP0002", line: 40, "Reference Point", "The old gate"),
            additional("Q20002", line: 50, "Question to Answer", "QA 2"),
            additional("TH0002", line: 60, "Trailhead", "Path starts"),
            Self.cache("GC0003", line: 70, 47.1, 8.1, name: "Next cache"),
            additional("PK0003", line: 80, "Parking Area", "Its car park"),
        ]
        let quest = try parse(GeocacheCourse(waypoints: waypoints, fileName: "gsak.gpx").quest().text)
        let pages = quest.messages.flatMap(\.pages)
        #expect(
            pages.map { $0.text.prefix { $0 != "\n" } } == [
                "The multi", "QA 1", "The old gate", "QA 2", "The box", "Next cache",
            ])
        #expect(
            pages[0].text.hasSuffix(
                "Parking Area: 47.020000,8.000000 (Car park)\nTrailhead: 47.060000,8.000000 (Path starts)"),
            "\(pages[0].text)")
        #expect(
            pages[4].text == "The box" && pages[5].text.hasSuffix("Parking Area: 47.080000,8.000000 (Its car park)"))
        #expect(quest.order == .sequence)
    }

    /// TerraCaching's way: a cache's stages and points are waypoints of their own with the cache's extension (its id).
    static func own(
        _ code: String, line: Int, _ latitude: Double, _ longitude: Double, name: String, id: String = "urn:t 7",
        description: String? = nil
    ) -> GeocacheWaypoint {
        var waypoint = cache(code, line: line, latitude, longitude, name: name, type: "TerraCache|Classic Cache")
        waypoint.cacheID = id
        waypoint.longDescription = description
        return waypoint
    }

    @Test func aCachesOwnWaypointsAreAPageWhenTheirNameSaysStageElsePointsOfTheCachesPage() throws {
        let waypoints = [
            Self.own("TC7", line: 3, 47.0, 8.0, name: "The multi", description: "Start here."),
            Self.own(
                "TC71", line: 10, 47.01, 8.01, name: "Car park", description: "Park by the sign; the stage is uphill."),
            Self.own("TC72", line: 20, 47.02, 8.02, name: "Stage 2", description: "Count the stones."),
            Self.own("TC73", line: 30, 47.03, 8.03, name: "Final", description: nil),
            Self.own("TC74", line: 40, 47.04, 8.04, name: "Stagecoach inn"),
            Self.own("TC8", line: 50, 47.1, 8.1, name: "Another cache", id: "urn:t 8"),
            Self.own("TC7", line: 60, 47.2, 8.2, name: "The multi again"),
        ]
        let (text, notes) = GeocacheCourse(waypoints: waypoints, fileName: "t.gpx").quest()
        let pages = try parse(text).messages[0].pages
        #expect(
            pages.map(\.text) == [
                "The multi\n\nStart here.\n\nCar park: 47.010000,8.010000 (Park by the sign; the stage is uphill.)\n"
                    + "Stagecoach inn: 47.040000,8.040000",
                "Stage 2\n\nCount the stones.", "Final", "Another cache", "The multi again",
            ])
        #expect(text.contains("# TC72 a waypoint of TC7, line 20 of t.gpx\npage: Stage 2\n"))
        // The same code twice is a duplicate, as before, not a waypoint of itself.
        #expect(notes == [GeocacheCourse.Note(line: 60, "TC7 again (first on line 3); kept as a page of its own")])
    }

    @Test func aCachesOwnWaypointBeforeItsCacheStillGoesToTheCache() throws {
        let waypoints = [
            Self.own("TC71", line: 3, 47.01, 8.01, name: "Parking"),
            Self.own("TC7", line: 9, 47.0, 8.0, name: "The cache"),
            Self.own("TC72", line: 15, 47.02, 8.02, name: "Stage two"),
        ]
        let pages = try parse(GeocacheCourse(waypoints: waypoints, fileName: "r.gpx").quest().text).messages[0].pages
        #expect(pages.map(\.text) == ["The cache\n\nParking: 47.010000,8.010000", "Stage two"])
    }

    @Test func duplicatesAreKeptAndReported() throws {
        let (text, notes) = GeocacheCourse(
            waypoints: [Self.cache("GC1", line: 2, 47, 8), Self.cache("GC1", line: 9, 47.1, 8)],
            fileName: "d.gpx"
        ).quest()
        #expect(try parse(text).messages[0].pages.count == 2)
        #expect(notes == [GeocacheCourse.Note(line: 9, "GC1 again (first on line 2); kept as a page of its own")])
    }

    @Test func textThatLooksLikeQuestSyntaxStaysText() throws {
        var odd = Self.cache("GC1", line: 2, 47, 8, name: "@notafile.txt")
        odd.longDescription = "lock: pin=1234\n# not a comment\n| not a continuation\nor"
        odd.hints = String(repeating: "h", count: 3_000)
        let page = try parse(GeocacheCourse(waypoints: [odd], fileName: "o.gpx").quest().text).messages[0].pages[0]
        #expect(page.text == "@notafile.txt\n\nlock: pin=1234\n# not a comment\n| not a continuation\nor")
        #expect(page.setA.count == 1)
        #expect(page.hints[0].text.unicodeScalars.count == Page.maximumHintLength)
    }

    @Test func aTooLongPageIsCutAndReported() throws {
        var long = Self.cache("GC1", line: 2, 47, 8, name: "Long")
        long.longDescription = String(repeating: "word ", count: 5_000)
        let (text, notes) = GeocacheCourse(waypoints: [long], fileName: "l.gpx").quest()
        #expect(try parse(text).messages[0].pages[0].text.unicodeScalars.count == Message.maximumPageLength)
        #expect(notes.map(\.line) == [2])
    }

    @Test func aCourseWithNoPointHasNoMessageAndSaysWhy() {
        let (text, notes) = GeocacheCourse(
            waypoints: [GeocacheWaypoint(code: "X", line: 4, coordinate: nil)], fileName: "e.gpx"
        ).quest()
        #expect(!text.contains("message:"))
        #expect(
            notes.last == GeocacheCourse.Note(line: 1, "no cache or waypoint with coordinates; the course has no page"))
    }

    @Test func rot13TurnsLettersOnly() {
        #expect(GeocacheText.rot13("Orgjrra gur ebbgf, 3 z!") == "Between the roots, 3 m!")
    }
}
