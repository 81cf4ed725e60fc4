import ChestCore
import Foundation

/// The page at `/`, as pure functions of a snapshot: the document, and its parts by element ID, which the event
/// stream sends again when they change (docs/HUNTS.md "The board in a browser").
public enum BoardPage {
    /// The IDs of the parts the page is made of, in the order they are sent.
    public static let sectionIDs = ["summary", "leaderboard", "map", "latest", "refused"]

    /// Each part's inner HTML by element ID.
    public static func sections(_ snapshot: BoardSnapshot, timeZone: TimeZone) -> [String: String] {
        let colours = Dictionary(snapshot.board.teams.enumerated().map { ($1.name, HTML.colour(teamIndex: $0)) }) { a, _ in a }
        return [
            "summary": summary(snapshot),
            "leaderboard": leaderboard(snapshot, colours: colours, timeZone: timeZone),
            "map": BoardMap(snapshot: snapshot, colours: colours).svg,
            "latest": latest(snapshot.unlocks, timeZone: timeZone),
            "refused": refused(snapshot, timeZone: timeZone),
        ]
    }

    /// The whole document, its parts as `sections` made them.
    public static func document(huntName: String, sections: [String: String]) -> String {
        func part(_ id: String) -> String { sections[id] ?? "" }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <title>\(HTML.escaped(huntName)) \u{2014} chest board</title>
            <link rel="stylesheet" href="/board.css">
            <script src="/board.js" defer></script>
            </head>
            <body>
            <header id="summary">\(part("summary"))</header>
            <main>
            <section class="ranks"><h2>Leaderboard</h2><div id="leaderboard">\(part("leaderboard"))</div></section>
            <aside>
            <section><h2>Map</h2><div id="map">\(part("map"))</div></section>
            <div class="feeds">
            <section><h2>Latest</h2><div id="latest">\(part("latest"))</div></section>
            <section><h2>Refused</h2><div id="refused">\(part("refused"))</div></section>
            </div>
            </aside>
            </main>
            </body>
            </html>

            """
    }

    /// Lines of the latest events and of the refusals: what fits under the map at 1920×1080.
    static let listed = 8

    static func summary(_ snapshot: BoardSnapshot) -> String {
        let teams = snapshot.board.teams
        let pages = teams.reduce(0) { $0 + $1.pages.count }
        let online = teams.count { $0.online == true }
        let state = snapshot.connection == "connected" ? "ok" : "warn"
        return """
            <h1>\(HTML.escaped(snapshot.huntName))</h1>\
            <p class="facts"><span>\(teams.count) teams, \(online) online</span> <span>\(pages) pages credited</span> \
            <span class="link \(state)" id="link">\(HTML.escaped(snapshot.broker)): \(HTML.escaped(snapshot.connection))</span></p>
            """
    }

    static func leaderboard(_ snapshot: BoardSnapshot, colours: [String: String], timeZone: TimeZone) -> String {
        var rows: [String] = []
        for (index, team) in snapshot.board.leaderboard().enumerated() {
            let guarded = team.pages.count { !$0.proven }
            let reached = team.reachedCount.map { time($0, timeZone) } ?? "\u{2014}"
            let online = switch team.online {
            case true?: #"<td class="on">online</td>"#
            case false?: #"<td class="off">offline</td>"#
            case nil: #"<td class="never" title="no status heard yet">\#u{2014}</td>"#
            }
            let refusals = team.refusals.values.reduce(0, +)
            let reasons = team.refusals.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            let name = HTML.escaped(team.name)
            rows.append("""
                <tr data-team="\(name)" data-pages="\(team.pages.count)"><td class="rank">\(index + 1)</td>\
                <td class="team">\(dot(colours[team.name]))\(name)</td>\
                <td class="num">\(team.pages.count)\(guarded > 0 ? #"<small> (\#(guarded) guarded)</small>"# : "")</td>\
                <td>\(reached)</td><td>\(team.trust.map { HTML.escaped($0.rawValue) } ?? "\u{2014}")</td>\(online)\
                <td class="num\(refusals > 0 ? " bad" : "")" title="\(HTML.escaped(reasons))">\(refusals)</td></tr>
                """)
        }
        return """
            <table><thead><tr><th>#</th><th>Team</th><th>Pages</th><th>Reached</th><th>Trust (claimed)</th>\
            <th>Online</th><th>Refused</th></tr></thead><tbody>
            \(rows.joined(separator: "\n"))
            </tbody></table>
            """
    }

    static func latest(_ unlocks: [BoardSnapshot.Logged], timeZone: TimeZone) -> String {
        let items = unlocks.suffix(listed).reversed().compactMap { logged -> String? in
            guard case let .unlock(team, _, title, page, openedAt, trust, _, proof, reachedAt) = logged.event else { return nil }
            let reached = reachedAt.map { ", place reached \(Wording.reached($0, before: openedAt, in: timeZone))" } ?? ""
            return """
                <li>\(time(logged.at, timeZone)) <b>\(HTML.escaped(team))</b> opened \u{201C}\(HTML.escaped(title))\u{201D} \
                page \(page) <small>\(HTML.escaped(proof)), trust \(HTML.escaped(trust.rawValue))\(reached) (claimed)</small></li>
                """
        }
        return items.isEmpty ? #"<p class="none">No page credited yet.</p>"# : "<ol>\(items.joined())</ol>"
    }

    static func refused(_ snapshot: BoardSnapshot, timeZone: TimeZone) -> String {
        let items = snapshot.refusals.suffix(listed).reversed().compactMap { logged -> String? in
            guard case let .refused(reason, team, why) = logged.event else { return nil }
            return """
                <li>\(time(logged.at, timeZone)) <b class="bad">\(HTML.escaped(reason))</b>\
                \(team.map { " from <b>\(HTML.escaped($0))</b>" } ?? ""): \(HTML.escaped(why))</li>
                """
        }
        let counts = snapshot.ignored.filter { $0.value > 0 }.sorted { $0.key < $1.key }
        let ignored = counts.isEmpty ? "" : "<p class=\"facts\">Ignored by the gate: "
            + counts.map { "\($0.value) \(HTML.escaped($0.key))" }.joined(separator: ", ") + "</p>"
        return (items.isEmpty ? #"<p class="none">Nothing refused.</p>"# : "<ol>\(items.joined())</ol>") + ignored
    }

    /// A time as the board heard it, in the board's zone, with the instant for machines.
    static func time(_ date: Date, _ zone: TimeZone) -> String {
        let seconds = (Int(date.timeIntervalSince1970.rounded(.down)) + zone.secondsFromGMT(for: date)) % 86_400
        let day = (seconds + 86_400) % 86_400
        let clock = String(format: "%02d:%02d:%02d", day / 3600, day / 60 % 60, day % 60)
        return #"<time datetime="\#(ISO8601.string(date))">\#(clock)</time>"#
    }

    static func dot(_ colour: String?) -> String {
        guard let colour else { return "" }
        return #"<svg class="dot" viewBox="0 0 10 10" aria-hidden="true"><circle cx="5" cy="5" r="5" fill="\#(colour)"/></svg>"#
    }
}
