import struct FoundationEssentials.Date

/// A column of the web board and the terminal board, as `chest board --columns LIST` chooses them (docs/HUNTS.md
/// "Columns"); without the option each board keeps its own layout.
package enum BoardColumn: String, CaseIterable, Sendable {
    case rank, team, points, pages, time, hints, adjusted, reached, trust, devices, online, refused

    /// The column's head on the web board ("Points"); the terminal board writes it in capitals.
    package var head: String {
        switch self {
        case .rank: "#"
        case .team: "Team"
        case .points: "Points"
        case .pages: "Pages"
        case .time: "Time"
        case .hints: "Hints"
        case .adjusted: "Adjusted"
        case .reached: "Reached"
        case .trust: "Trust"
        case .devices: "Devices"
        case .online: "Online"
        case .refused: "Refused"
        }
    }

    /// The columns of LIST ("rank,team,points,time"), in its order; why not, in a sentence naming every column,
    /// when a name is none of them, is repeated or the list is empty.
    package static func parse(_ list: String) -> Result<[BoardColumn], BoardColumnError> {
        var columns: [BoardColumn] = []
        for name in list.split(separator: ",", omittingEmptySubsequences: false) {
            let word = String(name.filter { $0 != " " }).lowercased()
            guard let column = BoardColumn(rawValue: word) else {
                return .failure(BoardColumnError("\"\(word)\" is not a column; the columns are \(allNames)"))
            }
            guard !columns.contains(column) else {
                return .failure(BoardColumnError("\(word) is listed twice"))
            }
            columns.append(column)
        }
        return .success(columns)
    }

    static var allNames: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// The cell's text for `team`, ranked `rank` (nil: not ranked yet), times in `zone`; "—" for nothing known.
    package func text(_ team: HuntBoard.Team, rank: String, zone: Zone) -> String {
        let none = "\u{2014}"
        switch self {
        case .rank: return rank
        case .team: return team.name
        case .points: return "\(team.points)"
        case .pages: return "\(team.pages.count)"
        case .time:
            if let time = team.time { return HuntBoard.clock(time) }
            return team.closesAt.map { "until " + LockReason.clock($0, zone) } ?? none
        case .hints: return team.hints.isEmpty ? "0" : "\(team.hints.count) (-\(team.hintCost))"
        case .adjusted: return team.adjusted > 0 ? "+\(team.adjusted)" : "\(team.adjusted)"
        case .reached: return team.reachedCount.map { LockReason.clock($0, zone) } ?? none
        case .trust: return team.trust?.rawValue ?? none
        case .devices: return team.devices.isEmpty ? none : team.devices.map(\.name).joined(separator: ", ")
        case .online:
            if team.devices.count > 1 { return "\(team.devicesOnline) of \(team.devices.count)" }
            return team.online.map { $0 ? "online" : "offline" } ?? "not heard"
        case .refused: return "\(team.refusals.values.reduce(0, +))"
        }
    }
}

/// Why a `--columns` list is not one.
package struct BoardColumnError: Error, CustomStringConvertible, Sendable {
    package let description: String
    init(_ description: String) { self.description = description }
}
