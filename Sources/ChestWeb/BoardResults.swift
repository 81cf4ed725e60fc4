import ChestCore
import Foundation

/// The hunt's results (`chest board HUNT --results [-o FILE.html|.json|.csv]`, docs/HUNTS.md "Results"): the final
/// ranking and, per team, the pages credited with when the board heard of each, the distance walked and the time
/// from the first page to the last (from the positions the team shared, when the hunt shares them), and its track
/// on the map with where each page opened. Pure: made from the board's snapshot.
public struct BoardResults: Sendable {
    /// One team's result.
    public struct Team: Sendable, Encodable {
        /// Absent for a team with nothing credited.
        public var rank: Int?
        /// The team's name.
        public var team: String
        /// Its colour on the board (`TeamColours`).
        public var colour: String?
        /// Its score (docs/HUNTS.md "Points").
        public var points: Int?
        /// Its credited pages, in the order the board heard of them.
        public var pages: [Page]
        /// The hints the board gave it.
        public var hintsTaken: Int?
        /// What its hints cost.
        public var hintCost: Int?
        /// The organiser's adjustments, each with its reason.
        public var adjustments: [Adjustment]?
        /// Metres along the positions the team's receipts shared, in the order the board heard them; absent when
        /// the hunt does not share positions or fewer than two were shared.
        public var distanceMetres: Double?
        /// Seconds from the board hearing of the first page to the last.
        public var firstToLastSeconds: Double?
        /// The worst and the best trust its pages were opened with.
        public var openedWith: [String: FixTrust.Level]?
    }

    /// An adjustment, as the results show it.
    public struct Adjustment: Sendable, Encodable {
        public var points: Int
        public var reason: String
        public var receivedAt: Date
    }

    /// A page credited, as the results show it: the organiser's title, and the board's time.
    public struct Page: Sendable, Encodable {
        /// The organiser's title of its message.
        public var title: String
        /// The page's number in its message.
        public var page: Int
        /// When the board heard of it: what ranks.
        public var reachedAt: Date
        /// When the team says it opened it: its claim.
        public var claimedOpenedAt: Date
        /// The trust of the fixes that opened it, as the receipt claims.
        public var trust: FixTrust.Level
        /// "proven", "proven: reached before the start", or "unproven: guarded page".
        public var proof: String
        /// Where it opened (the receipt's last confirming fix), when the hunt shares positions.
        public var position: Coordinate?
    }

    /// The hunt's name.
    public var hunt: String
    /// Whether the hunt shares positions: without them, no tracks and no distances.
    public var sharePositions: Bool
    /// Every team, in rank order.
    public var teams: [Team]
    let snapshot: BoardSnapshot
    let colours: [String: String]

    /// The results of the board as the snapshot has it.
    public init(_ snapshot: BoardSnapshot) {
        self.snapshot = snapshot
        hunt = snapshot.huntName
        sharePositions = snapshot.sharePositions
        let colours = TeamColours.assign(teams: snapshot.board.teams.map(\.name), chosen: snapshot.chosenColours)
        self.colours = colours
        teams = snapshot.board.leaderboard().enumerated().map { index, team in
            let trail = snapshot.sharePositions ? team.trail : []
            let distance = trail.count > 1 ? zip(trail, trail.dropFirst()).reduce(0.0) { $0 + $1.0.distance(to: $1.1) } : nil
            let times = team.pages.map(\.receivedAt)
            let trusts = team.pages.map(\.trust)
            return Team(rank: team.isRanked ? index + 1 : nil, team: team.name, colour: colours[team.name], points: team.points,
                        pages: team.pages.map {
                            Page(title: $0.title, page: $0.page, reachedAt: $0.receivedAt, claimedOpenedAt: $0.openedAt,
                                 trust: $0.trust, proof: $0.proofWords,
                                 position: snapshot.sharePositions ? $0.positions.last : nil)
                        },
                        hintsTaken: team.hints.count, hintCost: team.hintCost,
                        adjustments: team.adjustments.map { Adjustment(points: $0.points, reason: $0.reason, receivedAt: $0.receivedAt) },
                        distanceMetres: distance,
                        firstToLastSeconds: times.count > 1 ? times.max()!.timeIntervalSince(times.min()!) : nil,
                        openedWith: trusts.max().map { ["worst": $0, "best": trusts.min()!] })
        }
    }

    private struct Document: Encodable {
        var hunt: String
        var sharePositions: Bool
        var teams: [Team]
    }

    /// `--results -o FILE.json`: `{"hunt", "sharePositions", "teams": [...]}`, times ISO 8601, unknowns absent.
    public var json: Data { ChestJSON.line(Document(hunt: hunt, sharePositions: sharePositions, teams: teams)) }

    /// `--results -o FILE.csv`: one row a team, in rank order; its pages in one cell, "title p1 at TIME; …".
    public var csv: String {
        func cell(_ text: String) -> String {
            text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
        }
        var rows = ["rank,team,points,pages,first_to_last_seconds,distance_m,hints_taken,opened_with_worst,opened_with_best,pages_reached"]
        for team in teams {
            let reached = team.pages.map { "\($0.title) p\($0.page) at \(ISO8601.string($0.reachedAt))" }.joined(separator: "; ")
            func number(_ value: Int?) -> String { value.map(String.init) ?? "" }
            func rounded(_ value: Double?) -> String { number(value.map { Int($0.rounded()) }) }
            var row: [String] = [number(team.rank), team.team, number(team.points), "\(team.pages.count)"]
            row += [rounded(team.firstToLastSeconds), rounded(team.distanceMetres), number(team.hintsTaken)]
            row += [team.openedWith?["worst"]?.rawValue ?? "", team.openedWith?["best"]?.rawValue ?? "", reached]
            rows.append(row.map(cell).joined(separator: ","))
        }
        return rows.joined(separator: "\n") + "\n"
    }

    /// The ranking as text, for a terminal.
    public var text: String {
        var lines = ["Results of \(TerminalText.escaped(hunt))"]
        for team in teams {
            let rank = team.rank.map { "\($0)." } ?? "-"
            var facts = ["\(team.pages.count) page\(team.pages.count == 1 ? "" : "s")"]
            if let seconds = team.firstToLastSeconds { facts.append("first to last \(Wording.duration(seconds))") }
            if let metres = team.distanceMetres { facts.append("walked \(Wording.distance(metres))") }
            facts.append("\(team.points ?? 0) point\(team.points == 1 ? "" : "s")")
            if let hints = team.hintsTaken, hints > 0 { facts.append("\(hints) hint\(hints == 1 ? "" : "s") (-\(team.hintCost ?? 0))") }
            for adjustment in team.adjustments ?? [] {
                facts.append("\(adjustment.points > 0 ? "+" : "")\(adjustment.points) \(TerminalText.escaped(adjustment.reason))")
            }
            lines.append("\(rank) \(TerminalText.escaped(team.team)): " + facts.joined(separator: ", "))
        }
        if !sharePositions { lines.append("(this hunt does not share positions: no tracks and no distances)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `--results -o FILE.html`: one page, its style inside, nothing from elsewhere, for a printer or the big screen.
    /// Served by the board (`/results`), the style is its own file, as the Content-Security-Policy wants.
    public func html(timeZone: TimeZone, served: Bool = false) -> String {
        func time(_ date: Date) -> String { BoardPage.time(date, timeZone) }
        var rows: [String] = []
        for team in teams {
            let name = HTML.escaped(team.team)
            rows.append("""
                <tr data-team="\(name)"><td class="rank">\(team.rank.map(String.init) ?? "")</td>\
                <td class="team">\(BoardPage.dot(team.colour))\(name)</td>\
                <td class="num">\(team.points.map(String.init) ?? "\u{2014}")</td><td class="num">\(team.pages.count)</td>\
                <td class="num">\(team.firstToLastSeconds.map { Wording.duration($0) } ?? "\u{2014}")</td>\
                <td class="num">\(team.distanceMetres.map { Wording.distance($0) } ?? "\u{2014}")</td>\
                <td class="num">\(team.hintsTaken.map(String.init) ?? "\u{2014}")</td></tr>
                """)
        }
        var details: [String] = []
        for team in teams where !team.pages.isEmpty {
            let pages = team.pages.map { page in
                "<li>\(time(page.reachedAt)) \u{201C}\(HTML.isolated(page.title))\u{201D} page \(page.page) "
                    + "<small>\(HTML.escaped(page.proof)), opened with \(HTML.escaped(page.trust.rawValue))</small></li>"
            }
            details.append("<section><h3>\(BoardPage.dot(team.colour))\(HTML.escaped(team.team))</h3><ol>\(pages.joined())</ol></section>")
        }
        let tracks = sharePositions ? "" : #"<p class="note">This hunt does not share positions: no tracks and no distances.</p>"#
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light">
            <title>\(HTML.escaped(hunt)) \u{2014} results</title>
            \(served ? #"<link rel="stylesheet" href="/results.css">"# : "<style>\(Self.css)</style>")
            </head>
            <body>
            <h1>\(HTML.isolated(hunt)) \u{2014} results</h1>
            <table><thead><tr><th>#</th><th>Team</th><th class="num">Points</th><th class="num">Pages</th>\
            <th class="num">First to last page</th><th class="num">Walked</th><th class="num">Hints taken</th></tr></thead><tbody>
            \(rows.joined(separator: "\n"))
            </tbody></table>
            <p class="note">Ranked by points (a proven page's points, less the hints given, plus the organiser's \
            adjustments), then by who reached the score first, by the board's clock.</p>
            \(tracks)
            <figure>\(BoardMap(snapshot: snapshot, colours: colours, results: true).svg)</figure>
            <div class="teams">\(details.joined(separator: "\n"))</div>
            </body>
            </html>

            """
    }

    static let css = """
        body { margin: 1.5rem 2rem; font-family: system-ui, "DejaVu Sans", sans-serif; color: #1b1b1b; background: #fff; }
        h1 { font-size: 2rem; margin: 0 0 1rem; } h3 { margin: 0 0 0.3rem; }
        table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
        th, td { padding: 0.3rem 0.5rem; border-bottom: 1px solid #d8d4cc; text-align: left; }
        th { font-size: 0.8rem; color: #5d5d5d; } .num { text-align: right; } td.rank, td.team { font-weight: 700; }
        td.team { font-size: 1.2rem; }
        .dot { width: 0.8em; height: 0.8em; margin-right: 0.35em; vertical-align: -0.05em; }
        .note { color: #5d5d5d; } small { color: #5d5d5d; }
        figure { margin: 1rem 0; } figure svg { width: 100%; max-width: 60rem; height: auto; border: 1px solid #d8d4cc; }
        .sea { fill: #eef3f6; } .target { fill: #1f5fa8; fill-opacity: 0.15; stroke: #1f5fa8; stroke-width: 2; }
        .trail { fill: none; stroke-width: 3; stroke-linejoin: round; stroke-opacity: 0.8; }
        circle.team { stroke: #fff; stroke-width: 2; } .opened { stroke: #000; stroke-width: 1; }
        .label { fill: #1b1b1b; font-size: 22px; font-family: system-ui, "DejaVu Sans", sans-serif; } .label.team { font-weight: 700; }
        .label.far { fill: #5d5d5d; font-style: italic; } .scale { fill: none; stroke: #1b1b1b; stroke-width: 2; }
        .teams { columns: 2 24rem; } section { break-inside: avoid; margin-bottom: 1rem; }
        ol { margin: 0; padding-left: 1.2rem; }
        @media print { body { margin: 0; } }

        """
}
