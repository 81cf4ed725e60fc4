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
            let trail = snapshot.sharePositions ? team.trail : []
            let distance =
                trail.count > 1 ? zip(trail, trail.dropFirst()).reduce(0.0) { $0 + $1.0.distance(to: $1.1) } : nil
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

    private struct Document: Encodable {
        var hunt: String
        var sharePositions: Bool
        var teams: [Team]
    }

    /// `--results -o FILE.json`: `{"hunt", "sharePositions", "teams": [...]}`, times ISO 8601, unknowns absent.
    package var json: Data { ChestJSON.line(Document(hunt: hunt, sharePositions: sharePositions, teams: teams)) }

    /// `--results -o FILE.csv`: one row a team, in rank order; its pages in one cell, "title p1 at TIME; …".
    package var csv: String {
        // A finish's time (docs/HUNTS.md "A finish"): its column only once a team finished.
        let timed = teams.contains { $0.timeSeconds != nil }
        func cell(_ text: String) -> String {
            text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" })
                ? "\"" + text.replacing("\"", with: "\"\"") + "\"" : text
        }
        var rows = [
            "rank,team,points,pages,first_to_last_seconds,distance_m,hints_taken,opened_with_worst,opened_with_best"
                + (timed ? ",time_seconds" : "") + ",pages_reached"
        ]
        for team in teams {
            let reached = team.pages.map { "\($0.title) p\($0.page) at \(ISO8601.string($0.reachedAt))" }.joined(
                separator: "; ")
            func number(_ value: Int?) -> String { value.map(String.init) ?? "" }
            func rounded(_ value: Double?) -> String { number(value.map { Int($0.rounded()) }) }
            var row: [String] = [number(team.rank), team.team, number(team.points), "\(team.pages.count)"]
            row += [rounded(team.firstToLastSeconds), rounded(team.distanceMetres), number(team.hintsTaken)]
            row += [team.openedWith?["worst"]?.rawValue ?? "", team.openedWith?["best"]?.rawValue ?? ""]
            if timed { row.append(number(team.timeSeconds)) }
            row.append(reached)
            rows.append(row.map(cell).joined(separator: ","))
        }
        return rows.joined(separator: "\n") + "\n"
    }

    /// The ranking as text, for a terminal.
    package var text: String {
        var lines = ["Results of \(TerminalText.escaped(hunt))"]
        for (index, team) in teams.enumerated() {
            let rank = team.rank == nil ? "-" : places[index].label + "."
            var facts = ["\(team.pages.count) page\(team.pages.count == 1 ? "" : "s")"]
            if let seconds = team.timeSeconds { facts.append("finished in \(Self.span(Double(seconds)))") }
            if let early = team.reachedBeforeStart { facts.append("\(early) reached before the start") }
            if let seconds = team.firstToLastSeconds { facts.append("first to last \(Wording.duration(seconds))") }
            if let metres = team.distanceMetres { facts.append("walked \(Wording.distance(metres))") }
            facts.append("\(team.points ?? 0) point\(team.points == 1 ? "" : "s")")
            if let hints = team.hintsTaken, hints > 0 {
                facts.append("\(hints) hint\(hints == 1 ? "" : "s") (-\(team.hintCost ?? 0))")
            }
            for mission in team.missions ?? [] {
                facts.append("mission \(mission.message.short) p\(mission.page) +\(mission.points)")
            }
            for adjustment in team.adjustments ?? [] {
                facts.append(
                    "\(adjustment.points > 0 ? "+" : "")\(adjustment.points) \(TerminalText.escaped(adjustment.reason))"
                )
            }
            lines.append("\(rank) \(TerminalText.escaped(team.team)): " + facts.joined(separator: ", "))
        }
        if teams.contains(where: { $0.timeSeconds != nil }) {
            lines.append(
                "(equal points ranked by the time from a team's start to its finish; a team that did not finish after those that did)"
            )
        }
        if !sharePositions { lines.append("(this hunt does not share positions: no tracks and no distances)") }
        return lines.joined(separator: "\n") + "\n"
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

    /// Light and dark follow the system on a screen; on paper (A4 or Letter: the page's size is the printer's)
    /// every team, black on white, the ranking's head on each sheet (docs/HUNTS.md "Results").
    static let css = """
        :root { --bg: #ffffff; --fg: #1b1b1b; --muted: #5d5d5d; --line: #d8d4cc; --sea: #eef3f6; --target: #1f5fa8;
          color-scheme: light dark; }
        @media screen and (prefers-color-scheme: dark) {
          :root { --bg: #121417; --fg: #f1f1ee; --muted: #a9adb3; --line: #30343a; --sea: #17222b; --target: #7cb6ff; }
        }
        * { box-sizing: border-box; }
        body { margin: 1.5rem 2rem; font-family: system-ui, "DejaVu Sans", sans-serif; color: var(--fg); background: var(--bg); }
        .head { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0 1.5rem; margin: 0 0 1rem; }
        h1 { font-size: 2rem; margin: 0; } h2 { font-size: 1rem; margin: 0 0 0.3rem; color: var(--muted);
          text-transform: uppercase; letter-spacing: 0.06em; } h3 { margin: 0 0 0.3rem; }
        #paging { text-transform: none; letter-spacing: 0; font-weight: 400; }
        .when { margin: 0; font-size: 1.2rem; color: var(--muted); }
        table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
        th, td { padding: 0.3rem 0.5rem; border-bottom: 1px solid var(--line); text-align: left; }
        th { font-size: 0.8rem; color: var(--muted); } .num { text-align: right; white-space: nowrap; }
        td.rank, td.team, td.score { font-weight: 700; }
        td.team { font-size: 1.2rem; overflow-wrap: anywhere; }
        .dot { width: 0.8em; height: 0.8em; margin-right: 0.35em; vertical-align: -0.05em; }
        .dot circle { stroke: var(--fg); stroke-opacity: 0.35; stroke-width: 1; }
        .note { color: var(--muted); } small { color: var(--muted); }
        figure { margin: 1rem 0; } figure svg { width: 100%; max-width: 60rem; height: auto; border: 1px solid var(--line); }
        .sea { fill: var(--sea); } .target { fill: var(--target); fill-opacity: 0.15; stroke: var(--target); stroke-width: 2; }
        .trail { fill: none; stroke-width: 3; stroke-linejoin: round; stroke-opacity: 0.8; }
        circle.team { stroke: var(--bg); stroke-width: 2; } .opened { stroke: var(--fg); stroke-width: 1; }
        .label { fill: var(--fg); font-size: 22px; font-family: system-ui, "DejaVu Sans", sans-serif; } .label.team { font-weight: 700; }
        .label.far { fill: var(--muted); font-style: italic; } .scale { fill: none; stroke: var(--fg); stroke-width: 2; }
        .leader { stroke: var(--fg); stroke-opacity: 0.6; stroke-width: 1.5; }
        .photos { min-height: 0; overflow-y: auto; display: flex; flex-wrap: wrap; align-content: flex-start; gap: 0.6rem; }
        .photos h2 { flex: 0 0 100%; } .photos figure { margin: 0; width: 14rem; }
        .photos img { display: block; width: 100%; height: 10rem; object-fit: cover; border: 1px solid var(--line); }
        .photos figcaption { font-size: 0.85rem; }
        .teams { columns: 2 24rem; } .teams section { break-inside: avoid; margin-bottom: 1rem; }
        ol { margin: 0; padding-left: 1.2rem; }
        [hidden] { display: none !important; }
        /* The organiser's tiles beneath the map, as on the board (docs/HUNTS.md "A map beneath"). */
        \(BoardTiles.css)        /* On a projector (served): the screen, never scrolled; the ranking pages by itself (/results.js). */
        @media screen {
          html { font-size: clamp(12px, min(1.25vw, 2.2vh), 34px); }
          body.served { height: 100vh; margin: 0; padding: 0.6rem 1rem; overflow: hidden; display: flex; flex-direction: column; }
          body.served .head { flex: none; border-bottom: 2px solid var(--line); padding-bottom: 0.3rem; margin-bottom: 0.6rem; }
          body.served .main { flex: 1 1 0; min-height: 0; display: grid; grid-template-columns: minmax(0, 1.5fr) minmax(0, 1fr);
            grid-template-rows: minmax(0, 1fr); gap: 1rem; }
          body.served .ranking { display: flex; flex-direction: column; min-height: 0; }
          body.served .fill { flex: 1 1 0; min-height: 0; overflow: hidden; }
          body.served table { font-size: calc(var(--scale, 1) * 1rem); }
          body.served td { white-space: nowrap; } body.served td.team { font-size: 1.3em; }
          body.served td.score { font-size: 1.5em; } body.served th { font-size: 0.8em; }
          body.served figure { margin: 0; min-height: 0; } body.served figure svg { height: 100%; max-width: none; }
          body.served figure .tiled { height: 100%; } body.served figure .over svg { width: 100%; display: block; border: none; }
          body.served .teams { display: none; }
        }
        @media print {
          @page { margin: 12mm; }
          body { margin: 0; font-size: 10.5pt; }
          h1 { font-size: 18pt; } .when { font-size: 12pt; }
          /* Whatever the screen's script hid or shrank (a headless print may skip beforeprint). */
          tr[hidden] { display: table-row !important; } #ranking th, #ranking td { display: table-cell !important; }
          #ranking table { font-size: 10.5pt !important; } #paging { display: none; }
          thead { display: table-header-group; } tr { break-inside: avoid; }
          td.team { font-size: 11pt; }
          figure { break-inside: avoid; } figure svg { max-height: 120mm; }
          .teams { columns: 2; }
        }

        """

    /// `/results.js`: on a screen, the ranking's teams that fit, a page of them every 8 s; when the board turned
    /// here at the end and the organiser then moves the end later, back to the board (docs/HUNTS.md "Results").
    /// Like the board's, it says in `data-layout` whether a team's row runs out of the screen.
    static let javascript = """
        "use strict";
        (function () {
          const root = document.documentElement;
          let page = 0;
        \(PagedRows.script)
        \(BoardTiles.script)
          // docs/HUNTS.md "The ceremony": with ?reveal=N only the last N places show, the next one on a key press.
          let revealed = document.body.dataset.reveal === undefined ? null : Number(document.body.dataset.reveal);

          function fit() {
            const box = document.getElementById("ranking");
            const table = box && box.querySelector("table");
            const label = document.getElementById("paging");
            if (!table || !table.tBodies[0]) { return; }
            const all = Array.from(table.tBodies[0].rows);
            const rows = revealed === null ? all : all.slice(Math.max(all.length - revealed, 0));
            all.forEach(function (row) { row.hidden = rows.indexOf(row) < 0; });
            const zoom = drawTilesUnder(document.getElementById("results-map"));
            if (zoom !== null) { root.dataset.tiles = String(zoom); }
            // Every team's row whole across (a 32-character name): first without the hints taken, the distance
            // walked, the time from first to last page and the pages, in that order, then in smaller type.
            const optional = [6, 5, 4, 3];
            function show(dropped) {
              for (const row of table.rows) {
                Array.from(row.cells).forEach(function (cell, index) { cell.style.display = dropped.indexOf(index) >= 0 ? "none" : ""; });
              }
            }
            fitting: for (const scale of [1, 0.9, 0.8, 0.7, 0.6, 0.5]) {
              table.style.setProperty("--scale", String(scale));
              for (let count = 0; count <= optional.length; count += 1) {
                show(optional.slice(0, count));
                if (table.offsetWidth <= box.clientWidth) { root.dataset.scale = String(scale); break fitting; }
              }
            }
            root.dataset.viewport = window.innerWidth + "x" + window.innerHeight;
            root.dataset.background = getComputedStyle(document.body).backgroundColor;
            if (getComputedStyle(document.body).overflow !== "hidden") { root.dataset.pages = "1"; root.dataset.layout = "fits"; return; }
            // While revealing, the page holding the place revealed last: the top one.
            page = pageRows(rows, box.clientHeight - table.tHead.offsetHeight, revealed === null ? page : 0, label, root);
            const found = [];
            const bottom = Math.min(box.getBoundingClientRect().bottom, window.innerHeight);
            for (const row of rows) {
              if (row.hidden) { continue; }
              if (row.getBoundingClientRect().bottom > bottom + 1) { found.push("row " + row.dataset.team + " below the window"); }
              for (const cell of row.cells) {
                if (cell.scrollWidth > cell.clientWidth + 1) { found.push("cell of " + row.dataset.team + " cut"); }
              }
            }
            if (table.offsetWidth > box.clientWidth + 1) { found.push("the ranking runs out of its box sideways"); }
            const scroller = document.scrollingElement;
            if (scroller.scrollWidth > window.innerWidth + 1) { found.push("the page scrolls sideways"); }
            root.dataset.layout = found.length === 0 ? "fits" : found.slice(0, 8).join("; ");
          }

          if (revealed !== null) {
            document.addEventListener("keydown", function (event) {
              if ([" ", "ArrowRight", "Enter", "PageDown"].indexOf(event.key) < 0) { return; }
              event.preventDefault();
              const count = document.querySelectorAll("#ranking tbody tr").length;
              if (revealed >= count) { return; }
              revealed += 1;
              const address = new URL(window.location.href);
              address.searchParams.set("reveal", String(revealed));
              history.replaceState(null, "", address.toString());
              if (revealed >= count) {
                document.querySelectorAll("figure[hidden], .teams[hidden]").forEach(function (part) { part.hidden = false; });
              }
              root.dataset.revealed = String(revealed);
              fit();
            });
          }

          fit();
          window.addEventListener("load", fit);
          window.addEventListener("resize", fit);
          // On paper every team and every column, in the print style's type.
          window.addEventListener("beforeprint", function () {
            const table = document.querySelector("#ranking table");
            if (table) { table.style.removeProperty("--scale"); }
            Array.from(document.querySelectorAll("#ranking tr")).forEach(function (row) {
              row.hidden = false;
              Array.from(row.cells).forEach(function (cell) { cell.style.display = ""; });
            });
          });
          window.addEventListener("afterprint", fit);
          setInterval(function () {
            if (Number(root.dataset.pages || "1") > 1) { page += 1; fit(); }
          }, 8000);

          if (new URLSearchParams(window.location.search).has("final")) {
            setInterval(function () {
              fetch("/board.json", { cache: "no-store" }).then(function (response) { return response.json(); }).then(function (board) {
                if (!board.ends || Date.parse(board.ends) > Date.now()) { window.location.assign("/"); }
              }).catch(function () {});
            }, 5000);
          }
        })();

        """
}
