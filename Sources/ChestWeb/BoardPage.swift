import ChestCore
import ChestIO
import FoundationEssentials

/// The page at `/`, as pure functions of a snapshot: the document, and its parts by element ID, which the event
/// stream sends again when they change (docs/HUNTS.md "The board in a browser"). Made for a projector: the page never
/// scrolls; its script (`BoardAssets.javascript`) scales or pages the leaderboard and keeps as many one-line entries
/// of the lists as fit.
package enum BoardPage {
    /// The IDs of the parts the page is made of, in the order they are sent.
    package static let sectionIDs = ["summary", "leaderboard", "map", "latest", "judge", "refused"]
    /// Where the board serves a submission's photo: `/photo/<digest>.<kind>` (docs/HUNTS.md "Missions").
    package static let photoPath = "/photo/"

    /// Each part's inner HTML by element ID.
    package static func sections(_ snapshot: BoardSnapshot, timeZone: Zone) -> [String: String] {
        sections(snapshot, timeZone: timeZone, looks: TeamLooks(snapshot))
    }

    static func sections(_ snapshot: BoardSnapshot, timeZone: Zone, looks: TeamLooks) -> [String: String] {
        let colours = looks.colours
        return [
            "summary": summary(snapshot, timeZone: timeZone),
            "leaderboard": leaderboard(snapshot, colours: colours, lookalikes: looks.lookalikes, timeZone: timeZone),
            "map": BoardMap(snapshot: snapshot, colours: colours).svg,
            "latest": said(snapshot.words, timeZone: timeZone)
                + latest(
                    snapshot.unlocks, questions: snapshot.questions, colours: colours,
                    timeZone: timeZone),
            "judge": judge(snapshot.submissions, colours: colours, timeZone: timeZone),
            "refused": refused(snapshot, timeZone: timeZone),
        ]
    }

    /// The whole document, its parts as `sections` made them; with `tiles`, Leaflet draws them beneath the map
    /// (docs/HUNTS.md "A map beneath"), its attribution under it.
    package static func document(huntName: String, sections: [String: String], tiles: BoardTiles? = nil) -> String {
        func part(_ id: String) -> String { sections[id] ?? "" }
        let leaflet = tiles == nil ? "" : BoardTiles.head
        let map = tiles.map { $0.frame(part("map")) } ?? #"<div class="fill" id="map">\#(part("map"))</div>"#
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <title>\(HTML.escaped(huntName)) \u{2014} chest board</title>
            <link rel="stylesheet" href="/board.css">
            \(leaflet)<script src="/board.js" defer></script>
            </head>
            <body>
            <header id="summary">\(part("summary"))</header>
            <main>
            <section class="ranks"><h2><span id="ranking">Leaderboard</span> <span id="paging"></span></h2><div class="fill" id="leaderboard">\(part("leaderboard"))</div></section>
            <aside>
            <section class="map"><h2>Map</h2>\(map)</section>
            <section><h2>Latest</h2><div class="fill" id="latest">\(part("latest"))</div></section>
            <section class="judge"><h2>To judge</h2><div class="fill" id="judge">\(part("judge"))</div></section>
            <section><h2>Refused</h2><div class="fill" id="refused">\(part("refused"))</div></section>
            </aside>
            </main>
            </body>
            </html>

            """
    }

    /// Entries of the latest events and of the refusals sent to the page; its script shows as many as fit.
    static let listed = 30

    static func summary(_ snapshot: BoardSnapshot, timeZone: Zone = .current) -> String {
        let teams = snapshot.board.teams
        let pages = teams.reduce(0) { $0 + $1.pages.count }
        let online = teams.count { $0.online == true }
        let state = snapshot.connection.isConnected ? "ok" : "warn"
        // The page's script counts down to the start and the end in force and turns to /results at the end
        // (BoardAssets), even when nothing arrives then.
        let ends = snapshot.schedule.ends.map { #" data-ends="\#(ISO8601.string($0))""# } ?? ""
        return """
            <h1\(ends)>\(HTML.isolated(snapshot.huntName))</h1>\
            \(BoardClock.html(snapshot.schedule, timeZone: timeZone))\
            <p class="facts"><span>\(teams.count) teams, \(online) online</span> <span>\(pages) pages credited</span> \
            <span class="link \(state)" id="link">\(HTML.escaped(snapshot.broker.text)): \(HTML.escaped(snapshot.connection.description))</span></p>\
            <p class="results"><a href="/results">results</a></p>
            """
    }

    /// A team's cell: its colour and name; a lookalike's name with its differing characters written out and a warning.
    /// With `early`, the pages it reached before the start, after its name: the cell is never dropped, so the row
    /// says it on any screen (docs/HUNTS.md "On a projector").
    static func teamCell(_ team: String, name: String, lookalikeOf known: String?, colour: String?, early: Int = 0)
        -> String
    {
        let note = early > 0 ? #" <small class="warn early">\#(early) reached before the start</small>"# : ""
        guard let known else { return #"<td class="team" title="\#(name)">\#(dot(colour))\#(name)\#(note)</td>"# }
        let words = HTML.escaped(KnownSenders.lookalikeWords(team, of: known))
        return #"<td class="team" title="\#(words)">\#(dot(colour))\#(HTML.escaped(KnownSenders.revealed(team)))"#
            + #" <span class="warn">\#u{2248} \#(HTML.escaped(known))</span>\#(note)</td>"#
    }

    /// One row a team, ranked only once something was credited, given or adjusted: its points first (docs/HUNTS.md
    /// "Points"), then its pages, what its hints cost and the organiser's adjustments with their reasons.
    static func leaderboard(
        _ snapshot: BoardSnapshot, colours: [String: String], lookalikes: [String: String]? = nil,
        timeZone: Zone
    ) -> String {
        if let columns = snapshot.columns {
            return chosen(columns, snapshot, colours: colours, lookalikes: lookalikes, timeZone: timeZone)
        }
        // One string, its room reserved once the first rows show how long a row is: at 5,000 teams the table is
        // megabytes, and rows joined into it held it twice over, three times with the interpolation around it
        // (docs/BENCHMARKS.md "A city").
        var html = """
            <table><thead><tr><th class="c-rank">#</th><th class="c-team">Team</th><th class="score c-score">Points</th>\
            <th class="num c-pages" title="pages credited; the hints given and the organiser's adjustments beside them">Pages</th>\
            <th class="c-reached">Reached</th>\
            <th class="c-trust" title="the trust each credited page was opened with, worst to best">Opened with</th>\
            <th class="c-now" title="the team's latest status and the trust it claims now">Says now</th>\
            <th class="num c-refused">Refused</th></tr></thead><tbody>

            """
        let head = html.utf8.count
        let ranking = snapshot.board.leaderboard()
        let ranks = places(ranking)
        let sample = 32
        // A team named like another (a Cyrillic letter, an invisible space) is flagged, as on the terminal board
        // (docs/SECURITY.md "Known senders").
        let lookalikes = lookalikes ?? KnownSenders.lookalikes(among: snapshot.board.teamNames)
        for (index, team) in ranking.enumerated() {
            if index == sample, ranking.count > 2 * sample {
                // The first rows are the ranked ones, the longest: a quarter more than theirs is room enough.
                html.reserveCapacity(
                    html.utf8.count + (html.utf8.count - head) / sample * (ranking.count - sample) * 5 / 4)
            }
            if index > 0 { html += "\n" }
            let guarded = team.pages.count { !$0.proven }
            // The time of the team's last page, not of a bonus: what the column's head says (docs/HUNTS.md "On a
            // projector").
            var reached = team.reachedCount.map { time($0, timeZone) } ?? "\u{2014}"
            // A team's own clock (docs/HUNTS.md "A clock for each team", "A finish"): its time once it finished,
            // when its time runs out while it plays.
            if let seconds = team.time {
                reached += #" <span class="finish">finished in \#(HuntBoard.clock(seconds))</span>"#
            } else if snapshot.schedule.limit != nil, let closes = team.closesAt {
                reached += " <small>until \(time(closes, timeZone))</small>"
            }
            let now =
                switch team.online {
                case true?: #"<span class="on">online</span>"#
                case false?: #"<span class="off">offline</span>"#
                case nil: #"<span class="never">not heard</span>"#
                }
            var claim = team.trust.map { ", " + trust($0) } ?? ""
            // Several devices in one team (docs/HUNTS.md "Several devices in one team"): how many are online.
            if team.devices.count > 1 {
                claim +=
                    #" <small class="devices">\#(team.devicesOnline) of \#(team.devices.count) devices online</small>"#
            }
            let refusals = team.refusals.values.reduce(0, +)
            let reasons = team.refusals.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(
                separator: ", ")
            let name = HTML.escaped(team.name)
            let openedWith = openedWith(team)
            let guardedNote = guarded > 0 ? #", <span class="warn">\#(guarded) guarded</span>"# : ""
            let openedTitle = HTML.escaped(
                openedWithWords(team) + (guarded > 0 ? ", \(guarded) guarded (proves only the file was held)" : ""))
            html += """
                <tr data-team="\(name)" data-pages="\(team.pages.count)">\
                <td class="rank"\(ranks[index].tied ? #" title="tied on points""# : "")>\(ranks[index].label)</td>\
                \(teamCell(team.name, name: name, lookalikeOf: lookalikes[team.name], colour: colours[team.name], early: team.earlyPages))\
                <td class="score" data-score="points">\(team.points)</td>\
                <td class="num pages" title="\(HTML.escaped(scoreWords(team)))">\(team.pages.count)\(scoreNote(team))</td>\
                <td>\(reached)</td><td class="trust" title="\(openedTitle)">\(openedWith)\(guardedNote)</td>\
                <td class="now">\(now)\(claim)</td>\
                <td class="num\(refusals > 0 ? " bad" : "")" title="\(HTML.escaped(reasons))">\(refusals)</td></tr>
                """
        }
        // The columns' widths are the page script's: it measures what the cells hold (BoardAssets).
        html += "\n</tbody></table>"
        return html
    }

    /// A row's place: its rank, or "=3" for each of the teams level on points (the order among them is the
    /// tie-break's, docs/HUNTS.md "Points"); empty for a team with nothing credited, given or adjusted.
    struct Place: Equatable {
        var label: String
        var tied: Bool
    }

    /// Whether two teams are level on what ranks them before the board's clock (`HuntBoard.leaderboard`): their
    /// points, and for teams that never gained a point, their pages.
    static func level(_ a: HuntBoard.Team, _ b: HuntBoard.Team) -> Bool {
        // A finish breaks a tie in points (docs/HUNTS.md "A finish"): level only at the same time, or neither finished.
        guard a.points == b.points, a.time == b.time, (a.lastPointAt == nil) == (b.lastPointAt == nil) else {
            return false
        }
        return a.lastPointAt != nil || a.pages.count == b.pages.count
    }

    /// The places of a ranking, as `HuntBoard.ranks` numbers it, ties marked.
    static func places(_ ranking: [HuntBoard.Team]) -> [Place] {
        let ranks = HuntBoard.ranks(ranking)
        var places: [Place] = []
        var groupRank: Int?
        for index in ranking.indices {
            guard let rank = ranks[index] else {
                places.append(Place(label: "", tied: false))
                continue
            }
            let sameAsAbove = index > 0 && ranks[index - 1] != nil && level(ranking[index - 1], ranking[index])
            let sameAsBelow =
                index + 1 < ranking.count && ranks[index + 1] != nil && level(ranking[index + 1], ranking[index])
            if !sameAsAbove { groupRank = rank }
            let tied = sameAsAbove || sameAsBelow
            places.append(Place(label: tied ? "=\(groupRank ?? rank)" : "\(rank)", tied: tied))
        }
        return places
    }

    /// What the team's hints cost and the organiser's adjustments, beside its pages; nothing when it has neither.
    static func scoreNote(_ team: HuntBoard.Team) -> String {
        var parts: [String] = []
        if !team.hints.isEmpty { parts.append(#"<span class="warn">hints \#u{2212}\#(team.hintCost)</span>"#) }
        for adjustment in team.adjustments.suffix(3) {
            let sign = adjustment.points > 0 ? "+" : "\u{2212}"
            parts.append("<span>\(sign)\(abs(adjustment.points)) \(HTML.isolated(adjustment.reason))</span>")
        }
        return parts.isEmpty ? "" : " <small>" + parts.joined(separator: ", ") + "</small>"
    }

    static func scoreWords(_ team: HuntBoard.Team) -> String {
        var words = ["\(team.pages.count) pages, \(team.pagePoints) points"]
        if team.earlyPages > 0 { words.append("\(team.earlyPages) reached before the start: no points") }
        if !team.hints.isEmpty { words.append("\(team.hints.count) hints, \(team.hintCost) points") }
        words += team.adjustments.map { "\($0.points > 0 ? "+" : "")\($0.points): \($0.reason)" }
        return words.joined(separator: "; ")
    }

    /// The trust the team's credited pages were opened with: the worst and the best, or one when they agree.
    static func openedWith(_ team: HuntBoard.Team) -> String {
        guard let worst = team.pages.map(\.trust).max(), let best = team.pages.map(\.trust).min() else {
            return "\u{2014}"
        }
        return worst == best ? trust(worst) : "\(trust(worst))\u{2013}\(trust(best))"
    }

    static func openedWithWords(_ team: HuntBoard.Team) -> String {
        guard let worst = team.pages.map(\.trust).max(), let best = team.pages.map(\.trust).min() else {
            return "no page credited"
        }
        return worst == best
            ? "every page opened with \(worst.rawValue) fixes"
            : "pages opened with fixes from \(worst.rawValue) (worst) to \(best.rawValue) (best)"
    }

    static func trust(_ level: FixTrust.Level) -> String {
        let tone =
            switch level {
            case .hardware: "on"
            case .unverified: "warn"
            case .simulated, .suspect: "bad"
            }
        return #"<span class="\#(tone)">\#(level.rawValue)</span>"#
    }

    /// A time as the board heard it, in the board's zone, with the instant for machines.
    static func time(_ date: Date, _ zone: Zone) -> String {
        let seconds = (Int(date.timeIntervalSince1970.rounded(.down)) + zone.secondsFromGMT(for: date)) % 86_400
        let day = (seconds + 86_400) % 86_400
        let clock = String(printf: "%02d:%02d:%02d", day / 3600, day / 60 % 60, day % 60)
        return #"<time datetime="\#(ISO8601.string(date))">\#(clock)</time>"#
    }

    static func dot(_ colour: String?) -> String {
        guard let colour else { return "" }
        return
            #"<svg class="dot" viewBox="0 0 10 10" aria-hidden="true"><circle cx="5" cy="5" r="4.4" fill="\#(HTML.escaped(colour))"/></svg>"#
    }
}
