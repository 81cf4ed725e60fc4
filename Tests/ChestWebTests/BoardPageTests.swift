import ChestCore
import ChestIO
import ChestTestSupport
import Foundation
import FoundationXML
import Testing

@testable import ChestWeb

/// The page as a pure function of the board's state: every team with its count, what a team or a message brings
/// shown as text, the map from visible targets and (only when shared) positions, and the event stream's parts.
@Suite struct BoardPageTests {
    static let huntID = HuntID("0123456789abcdef0123456789abcdef")!
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    static let hostile = "<script>alert(1)</script>"

    static func key(_ byte: UInt8, count: Int = 32) -> String {
        Data(repeating: byte, count: count).base64EncodedString()
    }

    static func hunt(share: Bool) -> HuntFile {
        var hunt = HuntFile(
            id: huntID, name: "Old Town \(hostile)", broker: BrokerURL("mqtt://127.0.0.1:1883")!, organiser: key(1),
            sharePositions: share)
        hunt.teams = ["red", "blue"].enumerated().map { index, name in
            HuntTeam(
                name: TeamName(name)!, password: "pw-\(name)-0123456789ab", publicKey: key(UInt8(0x10 + index)),
                secretKey: nil)
        }
        let target = HuntMessage.Target(Coordinate(latitude: 46.2050, longitude: 6.1430), radius: 40)
        hunt.messages = [
            MessageID(String(repeating: "ab", count: 16))!: HuntMessage(
                title: "Fountain \(hostile)",
                pages: [
                    HuntMessage.PageKey(key: key(2), guarded: false, targets: [target])
                ])
        ]
        return hunt
    }

    /// A board on which red opened two pages (the second titled with a script) and blue one, and one message was
    /// refused on red's topic, and one on a topic with a script in it.
    static func snapshot(share: Bool) -> BoardSnapshot {
        let hunt = hunt(share: share)
        var board = HuntBoard(hunt: hunt)
        var unlocks: [BoardSnapshot.Logged] = []
        for (index, (team, title, page)) in [("red", "Clue", 1), ("blue", "Clue", 1), ("red", hostile, 2)].enumerated()
        {
            let at = t0 + Double(index)
            let reader = key(UInt8(0x30 + (team == "red" ? 0 : 1)))
            var fix = UnlockEvidence.ConfirmingFix(
                Fix(
                    mode: 3, coordinate: Coordinate(latitude: 46.2044 + Double(index) / 1000, longitude: 6.1432),
                    altitudeMSL: 400, eph: 3, epv: 5, satellitesUsed: 9, time: at, receivedAt: 0))
            if !share { (fix.latitude, fix.longitude) = (nil, nil) }
            var receipt = UnlockReceipt(
                message: MessageID(bytes: [UInt8](repeating: UInt8(index), count: 16)),
                messageSignature: key(9, count: 64), title: title, page: page, set: .a, openedAt: at,
                evidence: UnlockEvidence(
                    locks: [.location], fixes: [fix], source: nil,
                    trust: FixTrust(level: .hardware), gpsTime: nil, systemTime: at,
                    clock: "system"),
                reader: reader)
            receipt.signature = key(UInt8(0x40 + index), count: 64)
            let envelope = HuntEnvelope(hunt: huntID, sender: team, id: UInt64(index + 1), sent: at, receipt: receipt)
            for event in board.record(
                envelope, receiptProblem: nil, proof: .proven, claimedReader: reader, receivedAt: at)
            {
                if case .unlock = event { unlocks.append(.init(at: at, event: event)) }
            }
        }
        let refused =
            board.recordRefusal(.malformed, topic: "chest/\(huntID)/red/receipt/7", at: t0 + 5)
            + board.recordRefusal(.malformed, topic: "chest/\(huntID)/red/receipt/\(hostile)", at: t0 + 5)
        return BoardSnapshot(
            huntName: hunt.name, broker: hunt.broker, connection: .connected, board: board,
            sharePositions: share, targets: BoardSnapshot.targets(of: hunt), unlocks: unlocks,
            refusals: refused.map { .init(at: t0 + 5, event: $0) }, ignored: ["malformed": 2])
    }

    static let utc = Zone(identifier: "UTC")!

    @Test func theLeaderboardRanksEveryTeamWithItsCountAndTheBoardsReceiveTime() throws {
        let sections = BoardPage.sections(Self.snapshot(share: false), timeZone: Self.utc)
        let table = try #require(sections["leaderboard"])
        let red = try #require(table.range(of: #"<tr data-team="red" data-pages="2">"#))
        let blue = try #require(table.range(of: #"<tr data-team="blue" data-pages="1">"#))
        #expect(red.lowerBound < blue.lowerBound, "red, with two pages, ranks first")
        #expect(
            table.contains(#"<time datetime="2027-01-15T08:00:02Z">08:00:02</time>"#),
            "red reached two when the board heard the second")
        #expect(
            table.contains(#"title="2 malformed">2</td>"#),
            "red's refusals are counted, on any topic below its name, their reason named")
        let page = BoardPage.document(huntName: "Old Town", sections: sections)
        for id in BoardPage.sectionIDs { #expect(page.contains(#"id="\#(id)">\#(sections[id]!)<"#), "\(id)") }
    }

    @Test func aTeamNamedLikeAnotherIsFlagged() throws {
        var hunt = Self.hunt(share: false)
        // A hunt file's team names are ASCII (`TeamName`): a digit 1 reads as a small l.
        hunt.teams.append(
            HuntTeam(
                name: TeamName("b1ue")!, password: "pw-lookalike-0123456789ab", publicKey: Self.key(0x20),
                secretKey: nil))
        let snapshot = BoardSnapshot(
            huntName: hunt.name, broker: hunt.broker, connection: .connected, board: HuntBoard(hunt: hunt),
            sharePositions: false, targets: [], unlocks: [], refusals: [], ignored: [:])
        let table = try #require(BoardPage.sections(snapshot, timeZone: Self.utc)["leaderboard"])
        let row = try #require(table.split(separator: "\n").first { $0.contains(#"data-team="b1ue""#) })
        #expect(
            row.contains("a lookalike of blue, a sender you know under another key") && row.contains("\u{2248} blue"),
            "\(row)")
        #expect(!table.split(separator: "\n").contains { $0.contains(#"data-team="red""#) && $0.contains("lookalike") })
        let json = try JSON(BoardJSON.data(snapshot))
        let rows = try #require(json["teams"]?.array)
        #expect(rows.first { $0["team"]?.string == "b1ue" }?["lookalikeOf"]?.string == "blue", "\(rows)")
        #expect(rows.first { $0["team"]?.string == "red" }?["lookalikeOf"] == nil)
    }

    @Test func whatATeamOrAMessageBringsIsShownAsText() {
        let snapshot = Self.snapshot(share: true)
        let sections = BoardPage.sections(snapshot, timeZone: Self.utc)
        let everything =
            sections.values.joined() + BoardPage.document(huntName: snapshot.huntName, sections: sections)
            + String(decoding: BoardJSON.data(snapshot), as: UTF8.self).replacingOccurrences(of: Self.hostile, with: "")
        #expect(!everything.contains("<script>alert"), "no script from a title, a topic or the hunt's name")
        let escaped = "&lt;script&gt;alert(1)&lt;/script&gt;"
        #expect(
            sections["latest"]?.contains("opened \u{201C}\(escaped)\u{201D} page 2") == true,
            "\(sections["latest"] ?? "")")
        #expect(sections["refused"]?.contains("red/receipt/\(escaped)") == true, "\(sections["refused"] ?? "")")
        #expect(sections["summary"]?.contains("Old Town \(escaped)") == true)
        // The label is long for the map: shortened, its page kept (issue 59 item 4), and escaped.
        #expect(
            sections["map"]?.contains(">Fountain &lt;script&gt;") == true
                && sections["map"]?.contains("\u{2026} p1<") == true)
        #expect(HTML.escaped("a\u{1B}[31m\"'&") == "a\u{FFFD}[31m&quot;&#39;&amp;")
    }

    @Test func theOrganisersWordsAreLatestAndTheEndTurnsThePageToTheResults() {
        var snapshot = Self.snapshot(share: false)
        snapshot.words = [
            HuntWord.Said(id: 1, text: "Meet at <b>noon</b>", at: Date(timeIntervalSince1970: 1_800_000_000))
        ]
        snapshot.schedule = HuntSchedule(ends: Date(timeIntervalSince1970: 1_800_003_600))
        let sections = BoardPage.sections(snapshot, timeZone: Self.utc)
        #expect(
            sections["latest"]?.hasPrefix(#"<ol class="said"><li title="Meet at &lt;b&gt;noon&lt;/b&gt;">"#) == true,
            "\(sections["latest"] ?? "")")
        #expect(
            sections["latest"]?.contains("<b>organiser</b> says: <bdi>Meet at &lt;b&gt;noon&lt;/b&gt;</bdi>") == true)
        #expect(
            sections["summary"]?.contains(#"<h1 data-ends="2027-01-15T09:00:00Z">"#) == true,
            "\(sections["summary"] ?? "")")
        #expect(BoardAssets.javascript.contains(#"window.location.assign("/results?final")"#))
    }

    @Test func theMapShowsVisibleTargetsAndTrailsOnlyWhenTheHuntSharesPositions() throws {
        let shared = try #require(BoardPage.sections(Self.snapshot(share: true), timeZone: Self.utc)["map"])
        #expect(shared.contains(#"<circle class="target""#))
        #expect(shared.contains(#"<polyline class="trail""#), "red's two positions make a trail")
        #expect(shared.components(separatedBy: #"<circle class="team""#).count - 1 == 2, "each team's last position")
        let kept = try #require(BoardPage.sections(Self.snapshot(share: false), timeZone: Self.utc)["map"])
        #expect(kept.contains(#"<circle class="target""#))
        #expect(!kept.contains("trail") && !kept.contains(#"class="team""#))
        // Well-formed XML, as inline SVG in the page and on its own.
        _ = try XMLDocument(xmlString: shared)
    }

    @Test func theEventStreamSendsEverythingFirstThenOnlyWhatChanged() throws {
        var stream = EventStream(after: 1)
        let events = [
            EventStream.Numbered(number: 1, event: .refused(reason: "x", team: nil, why: "old")),
            EventStream.Numbered(
                number: 2, event: .team(name: "red", online: true, lastHeard: nil, trust: nil, pages: 0)),
        ]
        let first = String(
            decoding: stream.next(sections: ["a": "<p>1</p>", "b": "<p>2</p>"], events: events), as: UTF8.self)
        #expect(first.hasPrefix("retry: 2000\n\nevent: sections\ndata: {"))
        #expect(first.contains(#""a":"<p>1</p>""#) && first.contains(#""b":"<p>2</p>""#))
        #expect(
            first.contains("event: board\ndata: {\"event\":\"team\"") && !first.contains("old"), "events after 1 only")
        #expect(stream.next(sections: ["a": "<p>1</p>", "b": "<p>2</p>"], events: events).isEmpty)
        let changed = String(
            decoding: stream.next(sections: ["a": "<p>1</p>", "b": "<p>3</p>"], events: events), as: UTF8.self)
        #expect(changed == "event: sections\ndata: {\"b\":\"<p>3</p>\"}\n\n")
    }

    @Test func aTokenIsAskedOnceThenCarriedByACookie() {
        let open = BoardAccess(token: nil)
        #expect(open.decide(path: "/", queryToken: nil, cookie: nil) == .allow(setCookie: false))
        let token = "0123456789abcdef0123"
        let guarded = BoardAccess(token: token)
        #expect(guarded.decide(path: "/", queryToken: nil, cookie: nil) == .deny)
        #expect(guarded.decide(path: "/", queryToken: token + "x", cookie: nil) == .deny)
        #expect(guarded.decide(path: "/", queryToken: token, cookie: nil) == .redirect(to: "/"))
        #expect(guarded.decide(path: "/board.json", queryToken: token, cookie: nil) == .allow(setCookie: true))
        #expect(guarded.decide(path: "/events", queryToken: nil, cookie: token) == .allow(setCookie: false))
        #expect(guarded.decide(path: "/events", queryToken: nil, cookie: "0123456789abcdef0124") == .deny)
        #expect(guarded.cookieHeader == "chest-board=\(token); HttpOnly; SameSite=Strict; Path=/")
        #expect(
            BoardAccess.problem("short") != nil && BoardAccess.problem(token + "; x=1") != nil
                && BoardAccess.problem(token) == nil)
    }

    @Test func addressesDefaultToLoopback() throws {
        let port = try #require(HTTPAddress("8080"))
        #expect(port.description == "127.0.0.1:8080" && port.isLoopback)
        #expect(try #require(HTTPAddress("localhost:80")).isLoopback)
        #expect(try #require(HTTPAddress("127.3.0.1:80")).isLoopback)
        #expect(try #require(HTTPAddress("[::1]:8080")).isLoopback)
        #expect(try #require(HTTPAddress("0.0.0.0:8080")).isLoopback == false)
        #expect(try #require(HTTPAddress("[::]:8080")).isLoopback == false)
        #expect(try #require(HTTPAddress("192.168.1.20:0")).port == 0)
        for bad in ["", "http", "80000", "host.example:80", "1.2.3:80", "[::1]8080", "-1"] {
            #expect(HTTPAddress(bad) == nil, "\(bad)")
        }
    }
}

/// What the board shows of each team on a day of events (`BoardDay`): its colour, its rank only once credited, the
/// trust its pages were opened with apart from what it claims now, and what a hostile team cannot put on the screen.
@Suite struct BoardTeamTests {
    static let utc = Zone(identifier: "UTC")!

    @Test func aTeamHasTheColourItIsGivenOrNamedAfterAndThePaletteNeverContradictsAName() throws {
        let colours = TeamColours.assign(
            teams: ["foxes", "blue", "Red_Foxes", "owls", "teamGreen"], chosen: ["owls": "#00AA88"])
        #expect(colours["blue"] == TeamColours.hex("blue"))
        #expect(colours["Red_Foxes"] == TeamColours.hex("red") && colours["teamGreen"] == TeamColours.hex("green"))
        #expect(colours["owls"] == "#00aa88", "the organiser's choice")
        #expect(
            ![TeamColours.hex("blue"), TeamColours.hex("red"), TeamColours.hex("green")].contains(colours["foxes"]),
            "\(colours["foxes"] ?? "")")
        // Fifty teams, three named after colours: nobody else gets a colour near theirs.
        let names = ["blue", "red", "green"] + (1...47).map { "team-\($0)" }
        let many = TeamColours.assign(teams: names)
        let named = ["blue", "red", "green"].compactMap { TeamColours.hue(TeamColours.hex($0)!) }
        for name in names.dropFirst(3) {
            let colour = try #require(many[name])
            let hue =
                colour.hasPrefix("#")
                ? TeamColours.hue(colour)
                : Double(colour.dropFirst(4).prefix { $0 != "," })
            guard let hue else { continue }
            for taken in named {
                let difference = abs(hue - taken).truncatingRemainder(dividingBy: 360)
                #expect(
                    min(difference, 360 - difference) >= 12, "\(name) is \(colour), near a named team's hue \(taken)")
            }
        }
        #expect(Set(names.map { many[$0]! }).count == names.count, "fifty different colours")
    }

    @Test func aTeamIsRankedOnceCreditedAndItsPagesTrustIsShownApartFromItsClaim() throws {
        let snapshot = BoardDay.snapshot(teams: 12)
        let table = try #require(BoardPage.sections(snapshot, timeZone: Self.utc)["leaderboard"])
        let rows = table.components(separatedBy: "\n").filter { $0.hasPrefix("<tr data-team=") }
        let red = try #require(rows.first { $0.hasPrefix(#"<tr data-team="red" data-pages="0">"#) })
        #expect(red.contains(#"<td class="rank"></td>"#), "no rank with nothing credited: \(red)")
        let blue = try #require(rows.first { $0.hasPrefix(#"<tr data-team="blue""#) })
        #expect(
            blue.contains(
                #"<td class="trust" title="pages opened with fixes from simulated (worst) to hardware (best), 1 guarded"#
            ), "\(blue)")
        #expect(
            blue.contains(
                #"<td class="now"><span class="never">not heard</span>, <span class="bad">simulated</span></td>"#),
            "its claim, apart")
        #expect(blue.contains(#"<span class="bad">simulated</span>–<span class="on">hardware</span>"#), "\(blue)")
        #expect(blue.contains(#"<td class="rank""#) && !blue.contains(#"<td class="rank"></td>"#))
        #expect(blue.contains(#"fill="\#(TeamColours.hex("blue")!)""#), "blue's dot is blue")
        #expect(table.contains(">Opened with</th>") && table.contains(">Says now</th>"))
        let json = try JSON(BoardJSON.data(snapshot))
        let teams = try #require(json["teams"]?.array)
        let redRow = try #require(teams.first { $0["team"]?.string == "red" })
        #expect(redRow["rank"] == nil)
        let blueRow = try #require(teams.first { $0["team"]?.string == "blue" })
        #expect(blueRow["openedWith"] == ["worst": "simulated", "best": "hardware"])
        #expect(blueRow["colour"]?.string == TeamColours.hex("blue"))
    }

    @Test func aRightToLeftOverrideIsWrittenOutAndIsolated() {
        #expect(HTML.escaped("red\u{202E}der") == #"red\u{202e}der"#)
        #expect(HTML.isolated("\u{202E}x") == #"<bdi>\u{202e}x</bdi>"#)
        let logged = BoardSnapshot.Logged(
            at: BoardDay.start,
            event: .unlock(
                team: "red", message: MessageID(bytes: [UInt8](repeating: 1, count: 16)), title: "Fin\u{202E}al",
                page: 1,
                openedAt: BoardDay.start, trust: .hardware, receivedAt: BoardDay.start, proof: "proven"))
        let latest = BoardPage.latest([logged], colours: [:], timeZone: Self.utc)
        #expect(!latest.unicodeScalars.contains { $0.value == 0x202E }, "\(latest)")
        #expect(latest.contains(#"<bdi>Fin\u{202e}al</bdi>"#))
    }

    @Test func aPositionClaimedFarAwayDoesNotRescaleTheMap() throws {
        let near = try #require(BoardPage.sections(BoardDay.snapshot(teams: 2), timeZone: Self.utc)["map"])
        let far = try #require(
            BoardPage.sections(BoardDay.snapshot(teams: 2, farClaim: true), timeZone: Self.utc)["map"])
        func scale(_ svg: String) -> String? {
            svg.components(separatedBy: "\n").last { $0.contains(#"<path class="scale""#) }
        }
        #expect(scale(near) != nil && scale(near) == scale(far), "the same scale bar with and without the far claim")
        #expect(far.contains("Off the map: blue 100 km away"), "\(far)")
        #expect(!near.contains("Off the map"))
    }
}

/// `chest board --results`: the final ranking and each team's pages, time and distance, as HTML with the tracks on
/// the map, JSON and CSV; a hunt without shared positions says it has no tracks.
@Suite struct BoardResultsTests {
    @Test(.realProcesses, .tags(.process, .chromium)) func theResultsRankTeamsWithTheirPagesTimesDistancesAndTracks()
        throws
    {
        // Each team's chestd says how far it walked, blue 1,234 m: "Walked" is that, not the few metres between
        // the fixes that confirmed its pages (issue 59 item 3).
        var day = BoardDay.snapshot(teams: 12)
        for (index, team) in day.board.teams.enumerated() {
            let status = TeamStatus(online: true, pagesOpen: 0, walked: 1_234 + 100 * index)
            _ = day.board.record(
                HuntEnvelope(
                    hunt: BoardDay.huntID, sender: team.name, id: 1 << 32 | 1, sent: BoardDay.start, status: status),
                receiptProblem: nil, receivedAt: BoardDay.start + 50_000)
        }
        let results = BoardResults(day)
        let first = try #require(results.teams.first)
        // Ranked by points: blue's 7 pages (one guarded) and yellow_submarine's 8 (two guarded) make 6 points each, and
        // the board heard blue's last point first.
        #expect(first.rank == 1 && first.team == "blue" && first.pages.count == 7 && first.points == 6)
        #expect(
            results.teams[1].team == "yellow_submarine" && results.teams[1].points == 6
                && results.teams[1].pages.count == 8)
        #expect(first.distanceMetres == 1_234 && (first.firstToLastSeconds ?? 0) == 6 * 1_800, "\(first)")
        #expect(results.teams.first { $0.team == "red" }?.rank == nil)
        let json = try JSON(results.json)
        let teams = try #require(json["teams"]?.array)
        #expect(teams.count == 12 && (teams[0]["pages"]?.array)?.first?["reachedAt"]?.string != nil)
        let csv = results.csv.split(separator: "\n")
        #expect(
            csv[0]
                == "rank,team,points,pages,first_to_last_seconds,distance_m,hints_taken,opened_with_worst,opened_with_best,pages_reached"
        )
        #expect(csv[1].hasPrefix("1,blue,6,7,10800,1234,"), "\(csv[1])")
        #expect(results.html(timeZone: Zone(identifier: "UTC")!).contains("1.2 km"))
        #expect(csv.count == 13)
        let html = results.html(timeZone: Zone(identifier: "UTC")!)
        // Equal points show a tie (issue 59 item 3): the two teams of 6 points share the first place.
        #expect(html.contains(#"<tr data-team="blue"><td class="rank" title="tied on points">=1</td>"#))
        #expect(html.contains(#"<tr data-team="yellow_submarine"><td class="rank" title="tied on points">=1</td>"#))
        #expect(
            html.contains(#"<polyline class="trail""#) && html.contains(#"<path class="opened""#),
            "tracks and where pages opened")
        #expect(!html.contains("does not share positions"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("results-\(UUID().uuidString).html")
            .path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try html.write(toFile: file, atomically: true, encoding: .utf8)
        let lint = try Subprocess.run("/usr/bin/xmllint", ["--html", "--noout", file], environment: [:])
        // libxml2's HTML parser knows HTML 4 only: it names HTML5's elements (bdi, section, svg) as unknown tags.
        let errors = lint.stderr.split(separator: "\n").filter { $0.contains("error") && !$0.contains(": Tag ") }
        #expect(lint.status == 0 && errors.isEmpty, "\(lint.stderr)")
        if let directory = ProcessInfo.processInfo.environment["CHEST_BOARD_SCREENSHOTS"] {
            try html.write(toFile: directory + "/results.html", atomically: true, encoding: .utf8)
            let shot = try Chromium.run([
                "--screenshot=" + directory + "/results.png", "--window-size=1280,1800", "--hide-scrollbars",
                "file://" + directory + "/results.html",
            ])
            #expect(shot.status == 0, "\(shot.stderr)")
        }

        let kept = BoardResults(BoardPageTests.snapshot(share: false))
        let page = kept.html(timeZone: Zone(identifier: "UTC")!)
        #expect(page.contains("This hunt does not share positions: no tracks and no distances."))
        #expect(!page.contains("<polyline") && kept.teams.allSatisfy { $0.distanceMetres == nil })
        #expect(kept.text.contains("1. red: 2 pages, first to last 2 s"), "\(kept.text)")
    }
}
