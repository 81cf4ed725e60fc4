import ChestBench
import ChestCore
import ChestTestSupport
import Foundation
import Testing

@testable import ChestGPX

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
        #expect(
            cache.hints
                == "Der Klassiker schlechthin, ein Micro im Baumstumpf, nicht originell, dafür evtl. muggelsicherer")
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
        #expect(
            file.waypoints[0].longDescription
                == "The water comes from the spring above.\n\n- Bring a pen\n- Mind the ducks\n")
        #expect(file.waypoints[0].hints == "Under the third stone – left side")
        #expect(file.waypoints[2].hints == "Between the roots")
        #expect(file.waypoints[3].coordinate == nil)
        let (text, notes) = file.course(fileName: "c.gpx").quest()
        #expect(text.contains("  question: How many steps has the old stair?\n"))
        #expect(text.contains("| Parking Area: 47.377100,8.542400 (Car park; Free on Sundays)\n"))
        #expect(notes.map(\.line) == [68])
    }

    @Test func aTerraCachingExportGivesTheCacheFromItsExtensionWithHTMLAsTextAndItsOwnWaypoints() throws {
        let file = try Self.file("tc99un_gpx.gpx")
        #expect(file.name == nil)
        #expect(file.waypoints.map(\.code) == ["TC99UN", "TC99UN1", "TC99UN2", "TC99UN3", "TC99UN4"])
        #expect(file.waypoints.map(\.line) == [22, 49, 76, 103, 130])
        #expect(
            file.waypoints.map(\.title) == [
                "The Lodges at Heron Pond", "Stage Two", "Parking and Trailhead", "Jackson Overlook Trail",
                "Trail Junction",
            ])
        // Every one carries the cache's extension, with its id.
        #expect(Set(file.waypoints.map(\.cacheID)) == ["http://www.TerraCaching.com/GPX/1/0 13563"])
        let cache = file.waypoints[0]
        #expect(cache.coordinate == Coordinate(latitude: 43.88797, longitude: -110.64012))
        #expect(cache.owner == "dexter" && cache.cacheType == "Virtual")
        #expect(cache.hints == "follow the directions, remember the numbers, do the math")
        #expect(cache.shortDescription == nil)
        // terra:description is HTML with no html attribute: read as HTML all the same, &nbsp; runs and tags gone.
        let text = try #require(cache.longDescription)
        #expect(
            text.hasPrefix(
                "The Lodges at Heron Pond: Heron Pond at high water\nJackson Lake is the largest body of water in Grand Teton"
            ),
            "\(text.prefix(120))")
        #expect(text.hasSuffix("it's pretty here.\ndexter\n"), "\(text.suffix(60))")
        #expect(!text.contains("<") && !text.contains("&nbsp;") && !text.contains("\u{A0}\u{A0}"))
        #expect(
            file.waypoints[1].longDescription
                == "75 feet due south of large shoreside beaver lodge at base of blowdown at the coords:  count the number of melon sized flat stones snugged together"
        )
        #expect(file.notes.isEmpty)
    }

    @Test func aTerraCachingCourseHasTheCacheAndItsStageAsPagesAndTheOtherWaypointsAsPointsOfTheCache() throws {
        let (text, notes) = try Self.file("tc99un_gpx.gpx").course(fileName: "tc99un_gpx.gpx").quest()
        #expect(notes.isEmpty)
        #expect(text.components(separatedBy: "\npage: ").count == 3)
        #expect(
            text.contains(
                "\n# TC99UN by dexter, Virtual, line 22 of tc99un_gpx.gpx\npage: The Lodges at Heron Pond\n|\n"
                    + "| The Lodges at Heron Pond: Heron Pond at high water\n"))
        #expect(
            text.contains(
                """
                | dexter
                |
                | Parking and Trailhead: 43.901470,-110.641930 (Turn left by the Visitor's Center and park by the trailhead sign)
                | Jackson Overlook Trail: 43.892700,-110.643150 (Take right fork uphill to stage one, the listed coordinates)
                | Trail Junction: 43.887980,-110.638050 (Go left where trail intersects to return to start.)
                  waypoint: TC99UN (TerraCache|Classic Cache)
                  lock: location=43.887970,-110.640120/30m
                  hint: follow the directions, remember the numbers, do the math

                # TC99UN1 by dexter, Virtual, a waypoint of TC99UN, line 49 of tc99un_gpx.gpx
                page: Stage Two
                |
                | 75 feet due south of large shoreside beaver lodge at base of blowdown at the coords:  count the number of melon sized flat stones snugged together
                  waypoint: TC99UN1 (TerraCache|Classic Cache)
                  lock: location=43.884030,-110.636450/30m
                  hint: follow the directions, remember the numbers, do the math

                """), "\(text)")
    }

    @Test func aWaymarkingExportGivesAPageTitledByItsUrlnameWithItsDescription() throws {
        let file = try Self.file("waymarking_gpx.gpx")
        #expect(file.name == "GPX Lite Waymark List Generated from Waymarking.com")
        try #require(file.waypoints.count == 1)
        let waymark = file.waypoints[0]
        #expect(waymark.code == "WM7BM7" && waymark.line == 12 && waymark.cacheID == nil && waymark.owner == nil)
        #expect(waymark.coordinate == Coordinate(latitude: 48.86422, longitude: 9.1836))
        #expect(waymark.title == "Roman water pipe Kornwestheim")
        #expect(
            waymark.symbol == "Waymark" && waymark.type == "Ancient Roman Civilization" && waymark.additionalType == nil
        )
        let (text, notes) = file.course(fileName: "waymarking_gpx.gpx").quest()
        #expect(notes.isEmpty)
        #expect(
            text.hasSuffix(
                """

                message: waymarking_gpx
                title: Roman water pipe Kornwestheim

                # WM7BM7, line 12 of waymarking_gpx.gpx
                page: Roman water pipe Kornwestheim
                |
                | Roman water pipe Kornwestheim - A water fountain from an originally Roman water pipe.
                  waypoint: WM7BM7
                  lock: location=48.864220,9.183600/30m

                """), "\(text)")
    }

    @Test(arguments: [
        ("<b>Hier ruht</b> ein Held", true), ("Line one<br/>line two", true), ("<P CLASS=x>Text</P>", true),
        ("</div>", true),
        ("a < b and c > d", false), ("I <3 caches", false), ("<<Vorsicht>>", false),
        ("mail <owner@example.org>", false), ("", false),
    ])
    func aDescriptionWithoutAnHTMLAttributeIsHTMLWhenItHoldsTags(text: String, html: Bool) {
        #expect(HTMLText.looksLikeHTML(text) == html)
    }

    /// Issue 58: text after an inline element at the top level of a description stays on its line (libxml2 gave it
    /// an implied paragraph of its own), and blocks still break lines.
    @Test func inlineHTMLStaysOnOneLine() {
        func text(_ html: String) -> String { GeocacheText.lines(HTMLText.plain(html)).joined(separator: "\n") }
        #expect(
            text("<p> </p>\n<b>QA1</b>: Prvu suradnicu\n<p> </p>\n<b>QA2</b>: Druhu <i>B</i> ziskas")
                == "QA1: Prvu suradnicu\n\nQA2: Druhu B ziskas")
        #expect(text("<script>alert(1)</script><p>After</p>tail") == "After\n\ntail")
    }

    @Test func aDescriptionMarkedNotHTMLStaysAsItIsAndOneWithoutAttributeIsReadByItsTags() throws {
        let file = try GeocacheFile(
            data: Data(
                """
                <gpx version="1.0" xmlns="http://www.topografix.com/GPX/1/0">
                <wpt lat="47" lon="8"><name>OC1</name><x:cache xmlns:x="urn:x" id="1"><x:long_description html="False">Keep &lt;b&gt;this&lt;/b&gt;</x:long_description></x:cache></wpt>
                <wpt lat="47" lon="8.1"><name>OC2</name><x:cache xmlns:x="urn:x" id="2"><x:description>One&lt;br&gt;two &amp;amp; a &lt; b</x:description></x:cache></wpt>
                <wpt lat="47" lon="8.2"><name>OC3</name><x:cache xmlns:x="urn:x" id="3"><x:description>Plain, a &lt; b</x:description></x:cache></wpt>
                </gpx>
                """.utf8))
        #expect(file.waypoints.map(\.longDescription) == ["Keep <b>this</b>", "One\ntwo & a < b\n", "Plain, a < b"])
    }

    @Test(arguments: [
        ("", "the file is empty, not a GPX file"),
        ("hello, not XML\n", "not well-formed XML (libxml2: Document is empty)"),
        (
            "<?xml version=\"1.0\"?>\n<html><body>a web page</body></html>",
            "not a GPX file: its root element is <html>, not <gpx>"
        ),
    ])
    func aFileThatIsNotGPXIsAClearError(text: String, reason: String) {
        #expect(Self.error(text)?.reason == reason)
    }

    @Test func brokenXMLNamesItsLine() {
        let error = Self.error("<gpx version=\"1.1\">\n<wpt lat=\"1\" lon=\"2\">\n<name>A</nam>\n</wpt></gpx>")
        #expect(error?.line == 3)
        #expect(
            error?.reason.hasPrefix("not well-formed XML (libxml2: Opening and ending tag mismatch") == true,
            "\(String(describing: error))")
    }

    @Test func latin1BytesInAUTF8FileAreReportedByLineAndReadOn() throws {
        var data = Data(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.0\">\n<wpt lat=\"47\" lon=\"8\"><name>M".utf8)
        data.append(0xFC)  // ü in Latin-1
        data.append(
            contentsOf: Array("hle</name></wpt>\n<wpt lat=\"47.1\" lon=\"8\"><name>Zwei</name></wpt></gpx>\n".utf8))
        let file = try GeocacheFile(data: data)
        #expect(file.waypoints.map(\.code) == ["Mühle", "Zwei"])
        #expect(
            file.notes == [
                GeocacheCourse.Note(line: 3, "bytes that are not UTF-8 though the file says UTF-8; read as Latin-1")
            ])
    }

    @Test func coordinatesOutOfRangeOrMissingAreReportedNotGuessed() throws {
        let file = try GeocacheFile(
            data: Data(
                """
                <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">
                <wpt lat="95" lon="8"><name>North</name></wpt>
                <wpt lat="47" lon="-200"><name>West</name></wpt>
                <wpt><name>None</name></wpt>
                <wpt lat="N 47° 12.345" lon="E 8"><name>Words</name></wpt>
                <wpt lat="47" lon="8"><name>Fine</name></wpt>
                </gpx>
                """.utf8))
        #expect(
            file.waypoints.map(\.coordinateProblem) == [
                "lat=95 is outside -90..90", "lon=-200 is outside -180..180", "no lat and lon",
                "lat=\"N 47° 12.345\" lon=\"E 8\" are not decimal degrees", nil,
            ])
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

    /// Issue 61, finding 7: libxml2 never closes a description's first element, so a leading <script> or <iframe>
    /// took the whole description, its question with it. The element goes; the text after it stays.
    @Test(arguments: [
        "<script>alert(1)</script>", "<iframe src=\"https://example.org/map\"></iframe>",
        "<style>p { color: red }</style>", "<noscript>Turn on JavaScript</noscript>", "<object data=\"x\"></object>",
    ])
    func aDescriptionThatBeginsWithAnElementLeftOutKeepsItsTextAndQuestion(element: String) throws {
        let html = element + "<p>Walk to the old bridge.</p>Count its arches.<br>Question: How many arches?"
        #expect(
            HTMLText.plain(html) == "Walk to the old bridge.\n\nCount its arches.\nQuestion: How many arches?\n",
            "\(HTMLText.plain(html))")
        let escaped = html.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        let file = try GeocacheFile(
            data: Data(
                """
                <gpx version="1.0" xmlns="http://www.topografix.com/GPX/1/0"><wpt lat="47" lon="8"><name>GC1</name>
                <groundspeak:cache id="1" xmlns:groundspeak="http://www.groundspeak.com/cache/1/0"><groundspeak:name>Bridge</groundspeak:name>
                <groundspeak:long_description html="True">\(escaped)</groundspeak:long_description></groundspeak:cache></wpt></gpx>
                """.utf8))
        let text = file.course(fileName: "b.gpx").quest().text
        #expect(
            text.contains("| Walk to the old bridge.\n") && text.contains("\n  question: How many arches?\n"), "\(text)"
        )
        #expect(!text.contains("alert") && !text.contains("JavaScript") && !text.contains("color"), "\(text)")
    }

    /// Finding 7: UTF-16 with a byte order mark (either order) is XML that every reader must take (XML 1.0, 4.3.3).
    @Test(arguments: [true, false])
    func aUTF16FileIsReadAsItSays(bigEndian: Bool) throws {
        let document = """
            <?xml version="1.0" encoding="UTF-16"?>
            <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><metadata><name>Sechzehn</name></metadata>
            <wpt lat="47.1" lon="8.1"><name>GCU16</name><desc>Brücke über die Aare</desc></wpt></gpx>

            """
        var data = Data(bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE])
        for unit in document.utf16 {
            data.append(
                contentsOf: bigEndian
                    ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)])
        }
        #expect(GeocacheFile.looksLikeGPX(data))
        let file = try GeocacheFile(data: data)
        #expect(file.name == "Sechzehn")
        #expect(file.waypoints.map(\.code) == ["GCU16"])
        #expect(file.waypoints.first?.description == "Brücke über die Aare")
        #expect(file.waypoints.first?.coordinate == Coordinate(latitude: 47.1, longitude: 8.1))
        #expect(file.notes.isEmpty, "\(file.notes)")
    }

    /// Finding 7: an entity whose text is in another file (which chest never reads) or nowhere is left out with a
    /// warning naming it and its line, once however many waypoints use it; one declared in the file is expanded.
    @Test func entitiesAreExpandedOrTheirLossIsTold() throws {
        let file = try GeocacheFile(
            data: Data(
                """
                <?xml version="1.0"?>
                <!DOCTYPE gpx [<!ENTITY river "the Aare"><!ENTITY bold "<b>old &river;</b>">
                <!ENTITY secret SYSTEM "file:///etc/passwd"><!ENTITY note SYSTEM "note.txt">]>
                <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">
                <wpt lat="47" lon="8"><name>A</name><desc>Over &river;, past the &bold; mill&secret;.</desc></wpt>
                <wpt lat="47.1" lon="8"><name>B</name><desc>&secret;</desc><cmt>&note;</cmt></wpt>
                <wpt lat="47.2" lon="8"><name>C</name><desc>Beyond &secret;</desc></wpt>
                </gpx>
                """.utf8))
        #expect(file.waypoints.map(\.description) == ["Over the Aare, past the old the Aare mill.", nil, "Beyond "])
        #expect(
            file.notes == [
                GeocacheCourse.Note(
                    line: 5,
                    "the entity &secret; is left out of the text (and on 2 more lines): its text is in file:///etc/passwd, and chest reads no file a GPX names"
                ),
                GeocacheCourse.Note(
                    line: 6,
                    "the entity &note; is left out of the text: its text is in note.txt, and chest reads no file a GPX names"
                ),
            ], "\(file.notes)")
        #expect(!(file.waypoints[1].comment ?? "").contains("root:"))
    }

    /// Finding 7: what entities add to one element's text is bounded, and the rest is told.
    @Test func entitiesAddAtMostAMebibyteToAText() throws {
        let file = try GeocacheFile(
            data: Data(
                """
                <?xml version="1.0"?>
                <!DOCTYPE gpx [<!ENTITY a "\(String(repeating: "x", count: 10_000))">]>
                <gpx version="1.1"><wpt lat="47" lon="8"><name>X</name><desc>\(String(repeating: "&a;", count: 120))</desc></wpt></gpx>
                """.utf8))
        #expect(file.waypoints.first?.description?.utf8.count == 104 * 10_000)
        #expect(
            file.notes == [
                GeocacheCourse.Note(
                    line: 3,
                    "the entity &a; is left out of the text: entities would add more than 1 MiB to the element's text")
            ], "\(file.notes)")
    }

    @Test func aThousandCachesWithLogsAreReadWhole() throws {
        let data = Data(GeocacheBenchFile.pocketQuery(caches: 1_000, logsPerCache: 2).utf8)
        let file = try GeocacheFile(data: data)
        #expect(file.waypoints.count == 1_000)
        #expect(file.waypoints.last?.code == "GCB1000")
        #expect(file.waypoints.last?.hints == "Hint 1000")
    }
}
