import ChestCore
import ChestGPX
import ChestBench
import ChestTestSupport
import Foundation
import Testing

/// docs/QUEST.md "A course from a geocaching GPX": geocaching GPX files others wrote (c:geo's fixtures, Apache-2.0,
/// Tests/Fixtures/geocaching/NOTICE) and hostile ones, read through libxml2.
@Suite struct GeocacheFileTests {
    static let directory = GPSLogs.packageRoot.appendingPathComponent("Tests/Fixtures/geocaching")

    static func file(_ name: String) throws -> GeocacheFile {
        try GeocacheFile(data: Data(contentsOf: directory.appendingPathComponent(name)))
    }

    static func error(_ text: String) -> GeocacheFile.ReadError? {
        do {
            _ = try GeocacheFile(data: Data(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func aPocketQueryGives1Point0CacheWithNameOwnerDescriptionsAndPlainHint() throws {
        let file = try Self.file("gc1bkp3_gpx100.gpx")
        #expect(file.name == "Cache Listing Generated from Geocaching.com")
        try #require(file.waypoints.count == 1)
        let cache = file.waypoints[0]
        #expect(cache.code == "GC1BKP3" && cache.line == 12)
        #expect(cache.coordinate == Coordinate(latitude: 48.859683, longitude: 9.1874))
        #expect(cache.title == "Die Schatzinsel / treasure island")
        #expect(cache.owner == "Die unbesiegbaren Geo - Geparden")
        #expect(cache.cacheType == "Traditional Cache")
        #expect(cache.shortDescription?.hasPrefix("Ein alter Kindheitstraum") == true)
        #expect(cache.longDescription?.contains("Walross\nLöwe") == true)
        // Plain text in a Pocket Query, in spite of the element's name.
        #expect(cache.hints == "Der Klassiker schlechthin, ein Micro im Baumstumpf, nicht originell, dafür evtl. muggelsicherer")
        #expect(file.notes.isEmpty)
    }

    @Test func anAdventureLabExportGivesEveryStageWithItsTaskAsQuestionAndHTMLAsText() throws {
        let file = try Self.file("lab_stary_prostejov.gpx")
        #expect(file.waypoints.map(\.code) == (0...4).map { "GC8DAEP-\($0)" })
        #expect(file.waypoints.allSatisfy { $0.isLabStage })
        #expect(file.waypoints[4].title == "Starý Prostějov - Wichterle a Kovářík a.s. (WIKOV) / Vila F. Kováříka")
        let short = try #require(file.waypoints[0].shortDescription)
        #expect(short.hasPrefix("Otevření série v oficiální aplikaci\n[CZ]"), "\(short.prefix(80))")
        #expect(!short.contains("<a") && !short.contains("<br>"))
        let quest = file.course(fileName: "lab_stary_prostejov.gpx").quest()
        #expect(quest.text.contains("  question: nalevo od budov hledej rozváděče (u plotu stavebnin).\n"))
        #expect(quest.text.components(separatedBy: "\n  question: ").count == 6)
        #expect(quest.text.contains("# GC8DAEP-3 by marram.cz, Lab Cache, line "))
    }

    @Test func additionalWaypointsKeepTheirType() throws {
        let file = try Self.file("gc31j2h_wpts.gpx")
        #expect(file.waypoints.map(\.additionalType) == ["Parking Area", "Stages of a Multicache"])
        #expect(file.waypoints.map(\.title) == ["Parkplatz", "Station 1"])
        #expect(file.waypoints[0].comment == "Kostenfreies Parken (je nach Parkreihe Parkscheibe erforderlich)")
    }

    @Test func aGPX11ExportWithGroundspeak101GivesEntitiesEncodedHintsListsAndNoScript() throws {
        let file = try Self.file("cgeo_gpx11_course.gpx")
        #expect(file.name == "Hill walk caches")
        #expect(file.waypoints.map(\.code) == ["GC9ZZ01", "PK9ZZ02", "GC9ZZ02", "S19ZZ02", "GC9ZZ03"])
        #expect(file.waypoints[0].owner == "Hill & Dale")
        #expect(file.waypoints[0].shortDescription == "Start at the fountain at the foot of the hill.\n\n")
        #expect(file.waypoints[0].longDescription == "The water comes from the spring above.\n- Bring a pen\n- Mind the ducks\n\n")
        #expect(file.waypoints[0].hints == "Under the third stone – left side")
        #expect(file.waypoints[2].hints == "Between the roots")
        #expect(file.waypoints[3].coordinate == nil)
        let (text, notes) = file.course(fileName: "c.gpx").quest()
        #expect(text.contains("  question: How many steps has the old stair?\n"))
        #expect(text.contains("| Parking Area: 47.377100,8.542400 (Car park; Free on Sundays)\n"))
        #expect(notes.map(\.line) == [68])
    }

    @Test(arguments: [
        ("", "the file is empty, not a GPX file"),
        ("hello, not XML\n", "not well-formed XML (libxml2: Document is empty)"),
        ("<?xml version=\"1.0\"?>\n<html><body>a web page</body></html>", "not a GPX file: its root element is <html>, not <gpx>"),
    ])
    func aFileThatIsNotGPXIsAClearError(text: String, reason: String) {
        #expect(Self.error(text)?.reason == reason)
    }

    @Test func brokenXMLNamesItsLine() {
        let error = Self.error("<gpx version=\"1.1\">\n<wpt lat=\"1\" lon=\"2\">\n<name>A</nam>\n</wpt></gpx>")
        #expect(error?.line == 3)
        #expect(error?.reason.hasPrefix("not well-formed XML (libxml2: Opening and ending tag mismatch") == true, "\(String(describing: error))")
    }

    @Test func latin1BytesInAUTF8FileAreReportedByLineAndReadOn() throws {
        var data = Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.0\">\n<wpt lat=\"47\" lon=\"8\"><name>M".utf8)
        data.append(0xFC) // ü in Latin-1
        data.append(contentsOf: Array("hle</name></wpt>\n<wpt lat=\"47.1\" lon=\"8\"><name>Zwei</name></wpt></gpx>\n".utf8))
        let file = try GeocacheFile(data: data)
        #expect(file.waypoints.map(\.code) == ["Mühle", "Zwei"])
        #expect(file.notes == [GeocacheCourse.Note(line: 3, "bytes that are not UTF-8 though the file says UTF-8; read as Latin-1")])
    }

    @Test func coordinatesOutOfRangeOrMissingAreReportedNotGuessed() throws {
        let file = try GeocacheFile(data: Data("""
            <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">
            <wpt lat="95" lon="8"><name>North</name></wpt>
            <wpt lat="47" lon="-200"><name>West</name></wpt>
            <wpt><name>None</name></wpt>
            <wpt lat="N 47° 12.345" lon="E 8"><name>Words</name></wpt>
            <wpt lat="47" lon="8"><name>Fine</name></wpt>
            </gpx>
            """.utf8))
        #expect(file.waypoints.map(\.coordinateProblem) == ["lat=95 is outside -90..90", "lon=-200 is outside -180..180", "no lat and lon",
                                                            "lat=\"N 47° 12.345\" lon=\"E 8\" are not decimal degrees", nil])
        let notes = file.course(fileName: "x.gpx").quest().notes
        #expect(notes.map(\.line) == [2, 3, 4, 5])
    }

    @Test func entityExpansionAndExternalEntitiesAreNotFollowed() throws {
        let laughs = """
            <?xml version="1.0"?>
            <!DOCTYPE gpx [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
            <!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;"><!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">
            <!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;"><!ENTITY h "&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;"><!ENTITY secret SYSTEM "file:///etc/passwd">]>
            <gpx version="1.1"><wpt lat="47" lon="8"><name>X</name><desc>&h;</desc><cmt>&secret;</cmt></wpt></gpx>
            """
        let file = try? GeocacheFile(data: Data(laughs.utf8))
        let waypoint = file?.waypoints.first
        #expect((waypoint?.description?.count ?? 0) < 1_000_000)
        #expect(waypoint?.comment?.contains("root:") != true)
    }

    @Test func aThousandCachesWithLogsAreReadWhole() throws {
        let data = Data(GeocacheBenchFile.pocketQuery(caches: 1_000, logsPerCache: 2).utf8)
        let file = try GeocacheFile(data: data)
        #expect(file.waypoints.count == 1_000)
        #expect(file.waypoints.last?.code == "GCB1000")
        #expect(file.waypoints.last?.hints == "Hint 1000")
    }
}
