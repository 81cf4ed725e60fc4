import ChestCore
import FoundationEssentials

extension BoardResults {
    struct Document: Encodable {
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
}
