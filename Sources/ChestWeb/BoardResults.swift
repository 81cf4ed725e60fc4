import ChestCore
import FoundationEssentials

/// The hunt's results (`chest board HUNT --results [-o FILE.html|.json|.csv]`, docs/HUNTS.md "Results"): the final
/// ranking and, per team, the pages credited with when the board heard of each, the distance walked and the time
/// from the first page to the last (from the positions the team shared, when the hunt shares them), and its track
/// on the map with where each page opened. Pure: made from the board's snapshot.
package struct BoardResults: Sendable {
    /// One team's result.
    package struct Team: Sendable, Encodable {
        /// Absent for a team with nothing credited.
        package var rank: Int?
        /// True when another ranked team is level with it (`BoardPage.level`: the same points, and without a point the
        /// same pages), the order among them the tie-break's; absent otherwise.
        package var tied: Bool?
        /// The team's name.
        package var team: String
        /// Its colour on the board (`TeamColours`).
        package var colour: String?
        /// Its score (docs/HUNTS.md "Points").
        package var points: Int?
        /// Its credited pages, in the order the board heard of them.
        package var pages: [Page]
        /// How many of them were reached before the hunt's start (no points, docs/HUNTS.md "Points"); absent at 0.
        package var reachedBeforeStart: Int?
        /// The hints the board gave it.
        package var hintsTaken: Int?
        /// What its hints cost.
        package var hintCost: Int?
        /// The organiser's adjustments, each with its reason.
        package var adjustments: [Adjustment]?
        /// Metres along the positions the team's receipts shared, in the order the board heard them; absent when
        /// the hunt does not share positions or fewer than two were shared.
        package var distanceMetres: Double?
        /// Seconds from the board hearing of the first page to the last.
        package var firstToLastSeconds: Double?
        /// The worst and the best trust its pages were opened with.
        package var openedWith: [String: FixTrust.Level]?
        /// The team's own start, its finish and the seconds between (docs/HUNTS.md "A finish"): the ranking's
        /// tie-break after points; absent when unknown.
        package var started: Date?
        package var finished: Date?
        package var timeSeconds: Int?
        /// The mission pages the organiser accepted, with their points (docs/HUNTS.md "Missions"); absent without one.
        package var missions: [Mission]?
    }

    /// An adjustment, as the results show it.
    /// A mission page accepted: its points, the organiser's reason, and the photo's address on the board, if any.
    package struct Mission: Sendable, Encodable {
        package var message: MessageID
        package var page: Int
        package var points: Int
        package var reason: String
        package var receivedAt: Date
        package var photo: String?
    }

    package struct Adjustment: Sendable, Encodable {
        package var points: Int
        package var reason: String
        package var receivedAt: Date
    }

    /// A page credited, as the results show it: the organiser's title, and the board's time.
    package struct Page: Sendable, Encodable {
        /// The organiser's title of its message.
        package var title: String
        /// The page's number in its message.
        package var page: Int
        /// When the board heard of it: what ranks.
        package var reachedAt: Date
        /// When the team says it opened it: its claim.
        package var claimedOpenedAt: Date
        /// The trust of the fixes that opened it, as the receipt claims.
        package var trust: FixTrust.Level
        /// "proven", "proven: reached before the start", or "unproven: guarded page".
        package var proof: String
        /// Where it opened (the receipt's last confirming fix), when the hunt shares positions.
        package var position: Coordinate?
    }

    /// The hunt's name.
    package var hunt: String
    /// Whether the hunt shares positions: without them, no tracks and no distances.
    package var sharePositions: Bool
    /// Every team, in rank order.
    package var teams: [Team]
    let snapshot: BoardSnapshot
    let colours: [String: String]
    /// Each team's place as the projector shows it, "=3" for a tie, in rank order.
    let places: [BoardPage.Place]

    /// The results of the board as the snapshot has it.
    package init(_ snapshot: BoardSnapshot) {
        self.snapshot = snapshot
        hunt = snapshot.huntName
        sharePositions = snapshot.sharePositions
        let colours = TeamColours.assign(teams: snapshot.board.teams.map(\.name), chosen: snapshot.chosenColours)
        self.colours = colours
        let ranking = snapshot.board.leaderboard()
        let places = BoardPage.places(ranking)
        self.places = places
        teams = zip(ranking, HuntBoard.ranks(ranking)).enumerated().map { index, ranked in
            let (team, rank) = ranked
            // The team's track as its chestd measured it, not the few fixes that confirmed its pages.
            let distance = snapshot.sharePositions ? team.walked.map(Double.init) : nil
            let times = team.pages.map(\.receivedAt)
            let trusts = team.pages.map(\.trust)
            return Team(
                rank: rank, tied: places[index].tied ? true : nil, team: team.name, colour: colours[team.name],
                points: team.points,
                pages: team.pages.map {
                    Page(
                        title: $0.title, page: $0.page, reachedAt: $0.receivedAt, claimedOpenedAt: $0.openedAt,
                        trust: $0.trust, proof: $0.proofWords,
                        position: snapshot.sharePositions ? $0.positions.last : nil)
                },
                reachedBeforeStart: team.earlyPages > 0 ? team.earlyPages : nil,
                hintsTaken: team.hints.count, hintCost: team.hintCost,
                adjustments: team.adjustments.map {
                    Adjustment(points: $0.points, reason: $0.reason, receivedAt: $0.receivedAt)
                },
                distanceMetres: distance,
                firstToLastSeconds: times.count > 1 ? times.max()!.timeIntervalSince(times.min()!) : nil,
                openedWith: trusts.max().map { ["worst": $0, "best": trusts.min()!] }, started: team.startedAt,
                finished: team.finishedAt, timeSeconds: team.time,
                missions: team.missions.isEmpty
                    ? nil
                    : team.missions.map { credit in
                        let photo = snapshot.submissions.first {
                            $0.team == team.name && $0.id == credit.submission && $0.state == .accepted
                        }?.photoName
                        return Mission(
                            message: credit.message, page: credit.page, points: credit.points, reason: credit.reason,
                            receivedAt: credit.receivedAt, photo: photo.map { BoardPage.photoPath + $0 })
                    })
        }
    }

    /// `--results -o FILE.html`: one page, its style inside, nothing from elsewhere, for a printer or the big screen.
    /// Served by the board (`/results`), the style and a script are their own files, as the Content-Security-Policy
    /// wants, and on a screen the page fits it: the ranking pages by itself, the teams' pages are left to print
    /// (docs/HUNTS.md "Results"). `now` decides between "final ranking" and "results so far". Served, `tiles` go
    /// beneath the map as on the board, and `reveal` shows only the last `reveal` places, the page's script
    /// revealing the next on a key press (docs/HUNTS.md "The ceremony").
    package func html(
        timeZone: Zone, served: Bool = false, now: Date = Date(), reveal: Int? = nil, tiles: BoardTiles? = nil,
        photos: Bool = false
    ) -> String {
        func time(_ date: Date) -> String { BoardPage.time(date, timeZone) }
        let tiles = served ? tiles : nil
        let reveal = served ? reveal.map { min(max($0, 0), teams.count) } : nil
        let revealing = reveal.map { $0 < teams.count } ?? false
        var rows: [String] = []
        // A finish ranks equal points by time (docs/HUNTS.md "A finish"): its column shows once a team finished.
        let timed = teams.contains { $0.timeSeconds != nil }
        for (index, team) in teams.enumerated() {
            let name = HTML.escaped(team.team)
            let hidden = reveal.map { index < teams.count - $0 } ?? false
            let early = team.reachedBeforeStart.map { " <small>\($0) reached before the start</small>" } ?? ""
            let time =
                timed
                ? #"<td class="num time">\#(team.timeSeconds.map { Self.span(Double($0)) } ?? "\u{2014}")</td>"# : ""
            rows.append(
                """
                <tr data-team="\(name)"\(hidden ? " hidden" : "")><td class="rank"\(places[index].tied ? #" title="tied on points""# : "")>\(places[index].label)</td>\
                <td class="team">\(BoardPage.dot(team.colour))\(name)\(early)</td>\
                <td class="num score">\(team.points.map(String.init) ?? "\u{2014}")</td><td class="num">\(team.pages.count)</td>\(time)\
                <td class="num">\(team.firstToLastSeconds.map { Self.span($0) } ?? "\u{2014}")</td>\
                <td class="num">\(team.distanceMetres.map { Wording.distance($0) } ?? "\u{2014}")</td>\
                <td class="num">\(team.hintsTaken.map(String.init) ?? "\u{2014}")</td></tr>
                """)
        }
        var details: [String] = []
        for team in teams where !team.pages.isEmpty || team.missions != nil {
            let pages =
                team.pages.map { page in
                    "<li>\(time(page.reachedAt)) \u{201C}\(HTML.isolated(page.title))\u{201D} page \(page.page) "
                        + "<small>\(HTML.escaped(page.proof)), opened with \(HTML.escaped(page.trust.rawValue))</small></li>"
                }
                + (team.missions ?? []).map { mission in
                    "<li>\(time(mission.receivedAt)) mission \(HTML.escaped(mission.message.short)) page \(mission.page) "
                        + "<small>accepted, \(mission.points) point\(mission.points == 1 ? "" : "s")"
                        + (mission.reason.isEmpty ? "" : ": \(HTML.isolated(mission.reason))") + "</small></li>"
                }
            details.append(
                "<section><h3>\(BoardPage.dot(team.colour))\(HTML.escaped(team.team))</h3><ol>\(pages.joined())</ol></section>"
            )
        }
        let tracks =
            sharePositions
            ? "" : #"<p class="note">This hunt does not share positions: no tracks and no distances.</p>"#
        // Over the organiser's tiles when served with them. While places are still to reveal, the map and the teams'
        // pages stay hidden: they would name the leaders.
        var drawn = snapshot
        drawn.tiles = tiles
        let map = BoardMap(snapshot: drawn, colours: colours, results: true).svg
        let ended = snapshot.schedule.hasEnded(at: now)
        let ends = snapshot.schedule.ends.map { #" data-ends="\#(ISO8601.string($0))""# } ?? ""
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <title>\(HTML.escaped(hunt)) \u{2014} results</title>
            \(served ? #"<link rel="stylesheet" href="/results.css">"# + "\n" + #"<script src="/results.js" defer></script>"# : "<style>\(Self.css)</style>")
            \(tiles == nil ? "" : BoardTiles.head)</head>
            <body class="\(served ? "served" : "file")"\(ends)\(reveal.map { #" data-reveal="\#($0)""# } ?? "")>
            <div class="head"><h1>\(HTML.isolated(hunt)) \u{2014} \(ended ? "final ranking" : "results so far")</h1>\
            <p class="when">\(HTML.escaped(when(timeZone: timeZone)))</p></div>
            <div class="main">
            <section class="ranking"><h2>Ranking <span id="paging"></span></h2><div class="fill" id="ranking"><table>\
            <thead><tr><th>#</th><th>Team</th><th class="num">Points</th><th class="num">Pages</th>\(timed ? #"<th class="num" title="from the team's start to its finish">Time</th>"# : "")\
            <th class="num" title="hours:minutes:seconds">First to last page</th><th class="num">Walked</th><th class="num">Hints taken</th></tr></thead><tbody>
            \(rows.joined(separator: "\n"))
            </tbody></table></div>
            <p class="note">Ranked by points (a proven page's points and accepted missions', less the hints given, plus the organiser's \
            adjustments), \(timed ? "then by the shorter time from the team's start to its finish (a team that did not finish after those that did), " : "")then by who reached the score first, by the board's clock.</p>
            \(tracks)</section>
            \(served && photos && !revealing ? photoWall() : "<figure\(revealing ? " hidden" : "")>\(tiles.map { $0.frame(map, id: "results-map", fill: false) } ?? map)</figure>")
            </div>
            <div class="teams"\(revealing ? " hidden" : "")>\(details.joined(separator: "\n"))</div>
            </body>
            </html>

            """
    }

    /// The accepted missions' photos beside the ranking (`/results?photos`, docs/HUNTS.md "Missions"), as the board
    /// serves them, in rank order.
    func photoWall() -> String {
        let figures = teams.flatMap { team in
            (team.missions ?? []).compactMap { mission in
                mission.photo.map { photo in
                    #"<figure><img src="\#(photo)" alt="\#(HTML.escaped(team.team)), mission page \#(mission.page)" loading="lazy">"#
                        + "<figcaption>\(BoardPage.dot(team.colour))\(HTML.escaped(team.team)) \u{2014} mission "
                        + "\(HTML.escaped(mission.message.short)) page \(mission.page), +\(mission.points)</figcaption></figure>"
                }
            }
        }
        return #"<section class="photos"><h2>Photos</h2>"#
            + (figures.isEmpty ? #"<p class="note">No mission photo accepted yet.</p>"# : figures.joined())
            + "</section>"
    }

    /// The hunt's date and window in the board's zone: its schedule's, or else the span of its credited pages;
    /// "Sat 2 May 2027, 14:00–16:00 UTC".
    func when(timeZone: Zone) -> String {
        var window = snapshot.schedule
        if window.starts == nil || window.ends == nil {
            let heard = teams.flatMap(\.pages).map(\.reachedAt)
            guard let first = heard.min(), let last = heard.max() else {
                return window.isEmpty
                    ? "no page credited yet" : BoardClock.window(window, timeZone: timeZone, date: true)
            }
            if window.isEmpty {
                let pages = BoardClock.window(HuntSchedule(starts: first, ends: last), timeZone: timeZone, date: true)
                return "pages credited \(pages) \(Self.zoneName(timeZone, at: first))"
            }
            window.starts = window.starts ?? first
            window.ends = window.ends ?? last
        }
        return BoardClock.window(window, timeZone: timeZone, date: true) + " "
            + Self.zoneName(timeZone, at: window.starts ?? Date())
    }

    /// "UTC" for UTC (Foundation says "GMT"), else the zone's abbreviation, "CEST".
    static func zoneName(_ zone: Zone, at instant: Date) -> String {
        ["UTC", "GMT", "Etc/UTC", "Etc/GMT"].contains(zone.identifier) ? "UTC" : zone.abbreviation(for: instant)
    }

    /// A duration in one form for the whole column: hours, minutes and seconds, "0:01:58", "2:05:00".
    static func span(_ seconds: Double) -> String { HuntBoard.clock(Int(seconds.rounded())) }

}
