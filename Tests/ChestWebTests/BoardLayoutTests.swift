import ChestCore
import ChestIO
import ChestTestSupport
import Foundation
import Testing

@testable import ChestWeb

/// The board on a projector (docs/HUNTS.md "The board in a browser", "On a projector"): at 1920×1080 and 1280×720,
/// light and dark, with 3 and 40 teams after a day of events, the leader named with the 32 characters a name may
/// have and holding 1234 points, headless Chromium lays the page out and the page's own check (`data-layout`) finds
/// nothing out of its card or off the screen, no scrolling, no team's name or points cut (not even to an ellipsis),
/// no shown row below the window, the leaderboard paged when it must.
/// With CHEST_BOARD_SCREENSHOTS=DIR it also leaves a screenshot of each in DIR (docs/board/ holds them).
// One browser at a time: the machine's other tests (Argon2id, gpsd) need the cores more than this one.
@Suite(.realProcesses, .tags(.process, .chromium), .serialized, .timeLimit(.minutes(10)))
struct BoardLayoutTests {
    static let sizes = [(1920, 1080), (1280, 720)]

    @Test(arguments: [3, 40])
    func theBoardFitsTheScreenAtBothSizesLightAndDark(teams: Int) throws {
        var snapshot = BoardDay.snapshot(teams: teams, names: BoardDay.projectorNames(teams))
        // On for an hour, two to go (the page's clock is the browser's).
        snapshot.schedule = HuntSchedule(
            starts: Date().addingTimeInterval(-3_600), ends: Date().addingTimeInterval(7_200))
        let server = try BoardServer(
            address: HTTPAddress("127.0.0.1:0")!, access: BoardAccess(token: nil),
            snapshot: snapshot, timeZone: Zone(identifier: "UTC")!)
        defer { server.stop() }
        let screenshots = ProcessInfo.processInfo.environment["CHEST_BOARD_SCREENSHOTS"]
        for (width, height) in Self.sizes {
            for dark in [false, true] {
                let page = try Self.layout(server.url, width: width, height: height, dark: dark)
                let scheme = dark ? "dark" : "light"
                #expect(page.viewport == "\(width)x\(height)", "\(teams) teams, \(scheme)")
                #expect(page.layout == "fits", "\(teams) teams at \(width)×\(height), \(scheme): \(page.layout)")
                #expect(page.dom.contains(#"id="summary""#) && page.dom.contains("data-team="))
                // Every team is on the board, on its page of the leaderboard; a few show when they are many.
                let rows = page.dom.components(separatedBy: "<tr data-team=").count - 1
                #expect(rows == teams)
                if teams == 3 { #expect(page.pages == 1) }
                if teams == 40 { #expect(page.pages >= 2, "40 teams do not fit one page at \(width)×\(height)") }
                // The leader's whole name and points, and the time left.
                #expect(page.dom.contains(#"<tr data-team="\#(BoardDay.longest)" data-pages="#))
                #expect(page.dom.contains(#"data-score="points">1234</td>"#))
                // The snapshot was made when the test began: on a loaded machine, minutes may have passed since.
                let left = Date().timeIntervalSince(snapshot.schedule.ends ?? Date())
                let minutes = Int((-left / 60).rounded(.down))
                let shown = [
                    "ends in \(minutes / 60):\(String(format: "%02d", minutes % 60)):",
                    "ends in \((minutes + 1) / 60):\(String(format: "%02d", (minutes + 1) % 60)):",
                ]
                #expect(shown.contains { page.dom.contains(">" + $0) }, "\(shown) \(page.dom.prefix(3000))")
                // Latest shows one line an entry, as many as fit: at least five on either screen.
                #expect(page.latestShown >= 5, "\(page.latestShown) latest entries at \(width)×\(height)")
                if let screenshots {
                    let picture = "\(screenshots)/board-\(teams)-teams-\(width)x\(height)-\(scheme).png"
                    let shot = try Chromium.run([
                        "--screenshot=" + picture, "--window-size=\(width),\(height)", "--hide-scrollbars",
                        Chromium.colourScheme(dark: dark), server.url,
                    ])
                    let size = try Chromium.pngSize(picture)
                    #expect(shot.status == 0 && size == (width, height), "\(shot.stderr)")
                }
            }
        }
    }

    struct Laid {
        var dom: String
        var viewport: String
        var layout: String
        var pages: Int
        var latestShown: Int
    }

    /// The height headless Chromium's window keeps for itself (not the page's), measured once on an empty page.
    static let chromeHeight: Int = {
        let probe = try? Chromium.run([
            "--dump-dom", "--window-size=1280,720",
            "data:text/html,<script>document.documentElement.dataset.h=innerHeight</script>",
        ])
        let seen = probe?.stdout.range(of: #"data-h=""#).flatMap {
            Int(probe!.stdout[$0.upperBound...].prefix { $0.isNumber })
        }
        return seen.map { 720 - $0 } ?? 0
    }()

    /// The window is grown by what Chromium keeps, so the page gets exactly `width`×`height`; if the page still
    /// saw another size, once more by what it says is missing.
    static func layout(_ url: String, width: Int, height: Int, dark: Bool) throws -> Laid {
        var window = height + chromeHeight
        var laid = try dump(url, width: width, windowHeight: window, dark: dark)
        if let seen = laid.viewport.split(separator: "x").last.flatMap({ Int($0) }), seen != height {
            window += height - seen
            laid = try dump(url, width: width, windowHeight: window, dark: dark)
        }
        return laid
    }

    static func dump(_ url: String, width: Int, windowHeight: Int, dark: Bool) throws -> Laid {
        let run = try Chromium.run([
            "--dump-dom", "--window-size=\(width),\(windowHeight)", "--hide-scrollbars",
            Chromium.colourScheme(dark: dark), url,
        ])
        func attribute(_ name: String, in text: String) -> String {
            guard let start = text.range(of: " \(name)=\"") else { return "" }
            return String(text[start.upperBound...].prefix { $0 != "\"" })
        }
        let html = run.stdout.components(separatedBy: "<head>").first ?? ""
        let latest =
            run.stdout.range(of: #"id="latest""#).map { String(run.stdout[$0.lowerBound...].prefix(200)) } ?? ""
        return Laid(
            dom: run.stdout, viewport: attribute("data-viewport", in: html),
            layout: attribute("data-layout", in: html).isEmpty
                ? "no layout check ran: \(run.stderr.suffix(500))" : attribute("data-layout", in: html),
            pages: Int(attribute("data-pages", in: html)) ?? 0,
            latestShown: Int(attribute("data-shown", in: latest)) ?? 0)
    }
}

/// A hunt's day on the board: teams named after colours and not, some with the longest names allowed, each opening
/// pages through the day with hardware and simulated fixes, and refusals with long reasons.
enum BoardDay {
    static let huntID = HuntID("0123456789abcdef0123456789abcdef")!
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let titles = [
        "Old town walk: start at the tower, then the hidden courtyard behind the market",
        "Fountain", "The bridge of sighs and what lies under it, if you look long enough", "Gift",
    ]

    static func names(_ count: Int) -> [String] {
        let fixed = [
            "blue", "red", "Green-Giants", "the-quick-brown-foxes-of-the-old", "owls", "team-7",
            "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW", "yellow_submarine", "night-walkers", "Mountain-Goats-2026",
            "zebras", "purple",
        ]
        return (0..<count).map { $0 < fixed.count ? fixed[$0] : "team-\($0 + 1)-walkers" }
    }

    /// A name of the 32 characters a team's name may have; in `projector`'s hunt, the team leads with 1234 points.
    static let longest = "Flying_Dutchmen_of_Zurich_Lakers"

    /// The projector's hard case: the leader's name as long as a name may be and 1234 points, then the widest
    /// name of that length, then as `names` goes on.
    static func projectorNames(_ count: Int) -> [String] {
        Array(
            ([longest, "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW", "owls"]
                + names(count + 3).filter { $0 != "owls" && !$0.hasPrefix("WWW") })
                .prefix(count))
    }

    static func key(_ byte: UInt8, count: Int = 32) -> String {
        Data(repeating: byte, count: count).base64EncodedString()
    }

    /// With `farClaim`, the first team's last receipt claims a position 100 km away.
    /// With `together`, every receipt claims the same spot: the teams stand in one place.
    /// With `earlyTeam`, that team's pages come last of all and their places were reached before the hunt's start.
    static func snapshot(
        teams count: Int, farClaim: Bool = false, names teamNames: [String]? = nil, together: Bool = false,
        earlyTeam: String? = nil
    ) -> BoardSnapshot {
        var hunt = HuntFile(
            id: huntID, name: "Spring hunt through the old town, the parks and the lake shore",
            broker: BrokerURL("mqtt://hunt.example.org:8883")!, organiser: key(1), sharePositions: true)
        hunt.teams = (teamNames ?? names(count)).enumerated().map { index, name in
            HuntTeam(
                name: TeamName(name)!, password: "pw-\(index)-0123456789ab", publicKey: key(UInt8(index % 200 + 10)),
                secretKey: nil,
                colour: name == "owls" ? "#00aa88" : nil)
        }
        let centre = Coordinate(latitude: 46.2044, longitude: 6.1432)
        var messages: [MessageID: HuntMessage] = [:]
        for (index, title) in titles.enumerated() {
            let target = HuntMessage.Target(
                centre.offset(metres: 300 * Double(index), bearing: 70 * Double(index)), radius: 30)
            messages[MessageID(bytes: [UInt8](repeating: UInt8(index), count: 16))] = HuntMessage(
                title: title,
                pages: [
                    HuntMessage.PageKey(key: key(2), guarded: index == 3, targets: [target])
                ])
        }
        hunt.messages = messages
        var board = HuntBoard(hunt: hunt)
        var unlocks: [BoardSnapshot.Logged] = []
        var refusals: [BoardSnapshot.Logged] = []
        var id: UInt64 = 0
        for (teamIndex, team) in hunt.teams.enumerated() {
            let reader = key(UInt8(teamIndex % 200 + 40))
            // Every fifth team, the second among them, has nothing credited yet.
            let opened = teamIndex % 5 == 1 ? 0 : (teamIndex * 7 + 6) % 8 + 1
            for page in 0..<opened {
                id += 1
                let early = team.name.rawValue == earlyTeam
                let at = start + Double(teamIndex * 37 + page * 1_800) + (early ? 30_000 : 0)
                var spot = centre.offset(
                    metres: 300 * Double(page % 4), bearing: 70 * Double(page % 4) + Double(teamIndex))
                if farClaim, teamIndex == 0, page == opened - 1 { spot = centre.offset(metres: 100_000, bearing: 0) }
                if together { spot = centre }
                let fix = UnlockEvidence.ConfirmingFix(
                    Fix(
                        mode: 3, coordinate: spot, altitudeMSL: 400, eph: 3, epv: 5,
                        satellitesUsed: 9, time: at, receivedAt: 0))
                let trust: FixTrust.Level = (teamIndex + page) % 3 == 0 ? .simulated : .hardware
                var receipt = UnlockReceipt(
                    message: MessageID(bytes: [UInt8](repeating: UInt8(page % 4), count: 16)),
                    messageSignature: key(9, count: 64), title: titles[page % 4], page: 1 + page / 4, set: .a,
                    openedAt: at,
                    evidence: UnlockEvidence(
                        locks: [.location], fixes: [fix], source: nil,
                        trust: FixTrust(level: trust), gpsTime: nil, systemTime: at,
                        clock: "system"),
                    reader: reader)
                receipt.signature = key(UInt8(id % 250), count: 64) + "\(id)"
                let envelope = HuntEnvelope(
                    hunt: huntID, sender: team.name.rawValue, id: id, sent: at, receipt: receipt)
                for event in board.record(
                    envelope, receiptProblem: nil, proof: page % 4 == 3 ? .guarded : .proven,
                    claimedReader: reader, starts: early ? at + 3_600 : nil, receivedAt: at)
                {
                    if case .unlock = event { unlocks.append(.init(at: at, event: event)) }
                }
            }
            if teamIndex % 3 == 1 {
                let at = start + Double(teamIndex * 53 + 900)
                for event in board.recordRefusal(
                    .replayed, topic: HuntTopic.receipt(hunt: huntID, team: team.name.rawValue, id: 99), at: at)
                {
                    refusals.append(.init(at: at, event: event))
                }
            }
        }
        if let leader = board.teams.first(where: { $0.name == longest }) {
            _ = board.recordAdjustment(
                HuntAdjustment(team: longest, points: 1234 - leader.points, reason: "the bonus round"),
                receivedAt: start + 40_000)
        }
        unlocks.sort { $0.at < $1.at }
        refusals.sort { $0.at < $1.at }
        return BoardSnapshot(
            huntName: hunt.name, broker: hunt.broker, connection: .connected, board: board,
            sharePositions: true, targets: BoardSnapshot.targets(of: hunt), unlocks: unlocks,
            refusals: refusals, ignored: ["replayed": refusals.count, "malformed": 3],
            chosenColours: ["owls": "#00aa88"])
    }
}
