import ChestCore
import FoundationEssentials

extension BoardPage {
    /// The leaderboard with the organiser's columns (`chest board --columns`, docs/HUNTS.md "Columns"): a head and a
    /// cell each, in the order given, the team's name with its colour and any lookalike flag as on the usual board.
    static func chosen(
        _ columns: [BoardColumn], _ snapshot: BoardSnapshot, colours: [String: String], lookalikes: [String: String]?,
        timeZone: Zone
    ) -> String {
        let ranking = snapshot.board.leaderboard()
        let lookalikes = lookalikes ?? KnownSenders.lookalikes(among: snapshot.board.teamNames)
        let places = places(ranking)
        var html = "<table><thead><tr>"
        for column in columns {
            let number = column == .points || column == .pages || column == .refused
            html += #"<th class="\#(number ? "num " : "")c-\#(column.rawValue)">\#(column.head)</th>"#
        }
        html += "</tr></thead><tbody>\n"
        for (index, team) in ranking.enumerated() {
            let name = HTML.escaped(team.name)
            html += #"<tr data-team="\#(name)" data-pages="\#(team.pages.count)">"#
            for column in columns {
                switch column {
                case .team:
                    html += teamCell(
                        team.name, name: name, lookalikeOf: lookalikes[team.name], colour: colours[team.name])
                case .rank:
                    html += #"<td class="rank">\#(HTML.escaped(places[index].label))</td>"#
                case .points:
                    html += #"<td class="score" data-score="points">\#(team.points)</td>"#
                default:
                    let text = column.text(team, rank: places[index].label, zone: timeZone)
                    html += #"<td class="c-\#(column.rawValue)">\#(HTML.escaped(text))</td>"#
                }
            }
            html += "</tr>\n"
        }
        return html + "</tbody></table>"
    }
}
