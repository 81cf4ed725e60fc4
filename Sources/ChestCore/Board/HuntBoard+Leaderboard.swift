import struct FoundationEssentials.Date

/// The ranking (docs/HUNTS.md "Points") and the `chest board --once` table.
extension HuntBoard {
    /// Most points first; among equal points, teams that finished by the shorter time from their start to their
    /// finish, then the teams still running; then whose last point the board heard first (never the time a team
    /// claims); teams that never gained a point after those, by pages credited (guarded ones give no points) and whose
    /// count the board heard first; then by name (docs/HUNTS.md "Points").
    package func leaderboard() -> [Team] {
        teams.sorted { a, b in
            if a.points != b.points { return a.points > b.points }
            switch (a.time, b.time) {
            case let (x?, y?) where x != y: return x < y
            case (_?, nil): return true
            case (nil, _?): return false
            default: break
            }
            switch (a.lastPointAt, b.lastPointAt) {
            case let (x?, y?) where x != y: return x < y
            case (_?, nil): return true
            case (nil, _?): return false
            case (nil, nil) where a.pages.count != b.pages.count: return a.pages.count > b.pages.count
            case (nil, nil):
                switch (a.reachedCount, b.reachedCount) {
                case let (x?, y?) where x != y: return x < y
                default: return a.name < b.name
                }
            default: return a.name < b.name
            }
        }
    }

    /// Each row's rank in `leaderboard` (as `leaderboard()` orders it): ranked teams numbered 1, 2, 3… in order,
    /// counting only ranked teams, nil for a team with nothing credited, given or adjusted. A team below 0 comes
    /// after the unranked ones (below nothing is below 0) but its number follows the ranked teams above it.
    package static func ranks(_ leaderboard: [Team]) -> [Int?] {
        var next = 0
        return leaderboard.map { team in
            guard team.isRanked else { return nil }
            next += 1
            return next
        }
    }

    /// "finished 1:02:05" from the team's start, "until 14:30:00Z" while its own time runs, "-" otherwise.
    static func timeCell(_ team: Team) -> String {
        if let time = team.time { return "finished " + clock(time) }
        return team.closesAt.map { "until " + ISO8601.string($0) } ?? "-"
    }

    /// Seconds as hours:minutes:seconds, "1:02:05".
    package static func clock(_ seconds: Int) -> String {
        String(printf: "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
    }

    /// The `chest board --once` table: rank, team, points, pages credited and how many of them are unproven
    /// (guarded), the points its hints cost, the organiser's adjustments, how many pages were reached before the
    /// start, when the board heard the last point, the time and trust the team claims, online, refusals by reason.
    /// A team whose name reads as an earlier team's is flagged as the live boards flag it: its name with the
    /// differing characters written out, and "— a lookalike of NAME" after its row (docs/HUNTS.md "The board").
    package func leaderboardText() -> String {
        let header = [
            "#", "TEAM", "POINTS", "PAGES", "GUARDED", "HINTS", "ADJUSTED", "EARLY", "REACHED", "CLAIMED-OPENED",
            "CLAIMED-TRUST", "ONLINE", "REFUSED",
        ]
        let lookalikes = KnownSenders.lookalikes(among: teams.map(\.name))
        // A clock for each team or a finish (docs/HUNTS.md "A clock for each team"): the TIME column says, from the
        // team's start, when it finished, or when its time runs out.
        let timed = limit != nil || teams.contains { $0.finishedAt != nil }
        var heads: [String] = header
        if timed { heads.insert("TIME", at: 7) }
        var rows: [[String]] = [heads]
        let ranking = leaderboard()
        for (team, rank) in zip(ranking, Self.ranks(ranking)) {
            let unproven = team.pages.count { !$0.proven }
            let refusals = team.refusals.sorted { $0.key < $1.key }.map { "\($0.value)×\($0.key)" }.joined(
                separator: ",")
            // No rank until something is credited: a team with nothing is not "1st".
            let known = lookalikes[team.name]
            var row: [String] = [
                rank.map(String.init) ?? "-",
                known == nil ? TerminalText.escaped(team.name) : KnownSenders.revealed(team.name), "\(team.points)",
                "\(team.pages.count)", "\(unproven)", team.hints.isEmpty ? "0" : "-\(team.hintCost)",
                team.adjusted > 0 ? "+\(team.adjusted)" : "\(team.adjusted)", "\(team.earlyPages)",
                team.reachedAt.map(ISO8601.string) ?? "-", team.claimedCount.map(ISO8601.string) ?? "-",
                team.trust?.rawValue ?? "-",
                team.devices.count > 1
                    ? "\(team.devicesOnline)/\(team.devices.count)" : team.online.map { $0 ? "yes" : "no" } ?? "-",
                (refusals.isEmpty ? "0" : refusals)
                    + (known.map { "  \u{2014} a lookalike of \(TerminalText.escaped($0))" } ?? ""),
            ]
            if timed { row.insert(Self.timeCell(team), at: 7) }
            rows.append(row)
        }
        // In terminal columns, so that names of wide scripts ("東京") line up (docs/HUNTS.md "Team names").
        let widths = rows[0].indices.map { column in rows.map { $0[column].terminalColumns }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1
                    ? cell : cell + String(repeating: " ", count: widths[column] - cell.terminalColumns)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}
