import ChestCore
import ChestIO
import FoundationEssentials

/// The frame `chest board` draws: a header, a row per team, what was refused, the latest events.
struct BoardScreen {
    let hunt: HuntFile
    var connection = BrokerState.connecting
    /// The address of the board in a browser, when it is served.
    var web: String?
    /// The organiser's columns (`--columns`, docs/HUNTS.md "Columns"); nil for the usual ones.
    var chosenColumns: [BoardColumn]?

    /// Seconds each page of teams stays on the screen, as on the web board.
    static let pageSeconds = 8.0
    /// The latest events kept on the screen however many teams there are.
    static let latestKept = 3

    /// The frame, never more than `rows` lines nor wider than `columns`: the hunt's name, the time and the column
    /// heads stay at the top; when the teams do not fit under them with a few latest events, they are paged, a
    /// page every 8 s ("teams 1–21 of 40", docs/HUNTS.md "The board").
    func render(_ feed: BoardFeed, columns: Int, rows: Int, now: Date) -> [String] {
        let ranking = feed.board.leaderboard()
        let ignored = Self.ignoredLine(feed.gate)
        // The heads, what the gate ignored, "latest" and its kept lines, and the last row left empty.
        let fixed = 3 + (ignored.isEmpty ? 0 : 2) + 2 + Self.latestKept + 1
        let room = max(rows - fixed, 1)
        var shown = ranking[...]
        var paging: String?
        if ranking.count > room {
            let pages = (ranking.count + room - 1) / room
            let page = Int((now.timeIntervalSince1970 / Self.pageSeconds).rounded(.down)) % pages
            shown = ranking[(page * room)..<min((page + 1) * room, ranking.count)]
            paging = "teams \(shown.startIndex + 1)\u{2013}\(shown.endIndex) of \(ranking.count)"
        }
        let time = [feed.windowLine(at: now).map { "\u{1B}[1m\($0)\u{1B}[0m" }, paging].compactMap { $0 }
        var lines = [
            "\u{1B}[1mchest board\u{1B}[0m \u{2014} \u{201C}\(TerminalText.escaped(hunt.name))\u{201D} on \(hunt.broker): \(connection)"
                + (web.map { " \u{2014} \($0)" } ?? ""),
            time.joined(separator: " \u{00B7} "),
            pad("TEAM", 18) + pad("POINTS", 8) + pad("ONLINE", 9) + pad("PAGES", 7) + pad("LAST CREDITED", 30)
                + "TRUST (CLAIMED)",
        ]
        if let chosenColumns {
            lines.removeLast()
            lines += Self.chosen(chosenColumns, ranking: ranking, shown: shown)
            return finish(lines, feed, columns: columns, rows: rows)
        }
        let lookalikes = KnownSenders.lookalikes(among: hunt.teams.map(\.name.rawValue) + feed.board.teams.map(\.name))
        for team in shown {
            let last =
                team.pages.last.map {
                    "\(LockReason.clock($0.receivedAt, .current)) \(TerminalText.escaped($0.title)) p\($0.page)"
                } ?? "\u{2014}"
            let online = team.online.map { $0 ? "online" : "offline" } ?? "never"
            let lookalike =
                lookalikes[team.name].map { "  \u{1B}[1;31m\(KnownSenders.lookalikeWords(team.name, of: $0))\u{1B}[0m" }
                ?? ""
            let pages = "\(team.pages.count)"
            var score = [
                team.earlyPages == 0 ? nil : "\(team.earlyPages) reached before the start",
                team.hints.isEmpty ? nil : "hints -\(team.hintCost)",
                team.adjustments.isEmpty ? nil : "adjusted \(team.adjusted > 0 ? "+" : "")\(team.adjusted)",
            ].compactMap { $0 }
                .joined(separator: ", ")
            if !score.isEmpty { score = "  " + score }
            lines.append(
                pad(team.name, 18) + pad("\(team.points)", 8) + pad(online, 9) + pad(pages, 7) + pad(last, 30)
                    + (team.trust?.rawValue ?? "\u{2014}")
                    + score + (team.failed.isEmpty ? "" : "  \u{1B}[31m\(team.failed.count) refused\u{1B}[0m")
                    + lookalike)
        }
        return finish(lines, feed, columns: columns, rows: rows)
    }

    /// What the gate ignored and the latest events under the teams, cut to the screen: a line wider than the
    /// terminal would wrap and push the top off the screen.
    private func finish(_ lines: [String], _ feed: BoardFeed, columns: Int, rows: Int) -> [String] {
        var lines = lines
        let ignored = Self.ignoredLine(feed.gate)
        if !ignored.isEmpty { lines += ["", ignored.trimmingNewlines()] }
        lines += Self.judgeLines(feed.core.waiting)
        lines += ["", "\u{1B}[1mlatest\u{1B}[0m"]
        lines += feed.latestLines(room: max(rows - lines.count - 1, 0))
        return lines.prefix(rows).map { NavScreen.clip($0, columns) }
    }

    /// The submissions waiting to be judged, oldest first, a line each (docs/HUNTS.md "Missions"): at most
    /// `judgeKept`, then how many more.
    static func judgeLines(_ waiting: [BoardCore.HeardSubmission]) -> [String] {
        guard !waiting.isEmpty else { return [] }
        var lines = ["", "\u{1B}[1mto judge\u{1B}[0m (chest hunt judge TEAM MESSAGE PAGE --accept | --reject REASON)"]
        for submission in waiting.prefix(judgeKept) {
            let what =
                submission.text.map { "\u{201C}\(TerminalText.escaped($0).replacing("\n", with: " "))\u{201D}" }
                ?? "photo (\(submission.kind.rawValue)) \(submission.photoName ?? "")"
            lines.append(
                "\(LockReason.clock(submission.at, .current)) \(TerminalText.escaped(submission.team)) "
                    + "\(submission.message.short) page \(submission.page): \(what)")
        }
        if waiting.count > judgeKept { lines.append("\u{2026} and \(waiting.count - judgeKept) more") }
        return lines
    }

    /// The submissions the terminal board lists at most.
    static let judgeKept = 5

    /// The heads and the rows of the teams shown, in the organiser's columns, each as wide as what it holds.
    static func chosen(_ columns: [BoardColumn], ranking: [HuntBoard.Team], shown: ArraySlice<HuntBoard.Team>)
        -> [String]
    {
        let ranks = HuntBoard.ranks(ranking)
        var table = [columns.map { $0.head.uppercased() }]
        for (index, team) in zip(shown.indices, shown) {
            let rank = ranks[index].map(String.init) ?? "-"
            table.append(
                columns.map { column in
                    column == .team
                        ? TerminalText.escaped(team.name) : column.text(team, rank: rank, zone: .current)
                })
        }
        let widths = columns.indices.map { column in table.map { $0[column].terminalColumns }.max() ?? 0 }
        return table.map { row in
            row.enumerated().map { column, cell in
                cell + String(repeating: " ", count: max(widths[column] - cell.terminalColumns, 0))
            }.joined(separator: "  ")
        }
    }

    /// "ignored: 2 replayed, 1 unknownKey" after a newline, or nothing when nothing was ignored.
    static func ignoredLine(_ gate: HuntGate) -> String {
        let counts = gate.refused.filter { $0.value > 0 }.sorted { $0.key.rawValue < $1.key.rawValue }
        guard !counts.isEmpty else { return "" }
        return "\nignored: " + counts.map { "\($0.value) \($0.key.rawValue)" }.joined(separator: ", ")
    }

    /// `text` in `width` terminal columns, cut to leave one free: a name of a wide script ("東京") takes two a letter.
    private func pad(_ text: String, _ width: Int) -> String {
        var shown = text
        while shown.terminalColumns >= width { shown.removeLast() }
        return shown + String(repeating: " ", count: width - shown.terminalColumns)
    }
}

extension BoardEvent {
    /// The line the board's "latest" list shows; nil for a team's bare status.
    var text: String? {
        switch self {
        case .team: nil
        case let .unlock(team, _, title, page, openedAt, trust, _, proof, reachedAt):
            "\(team) opened \u{201C}\(TerminalText.escaped(title))\u{201D} page \(page) (\(proof); trust \(trust.rawValue)"
                + (reachedAt.map { "; place reached " + Wording.reached($0, before: openedAt, in: .current) } ?? "")
                + ", claimed)"
        case let .refused(reason, team, why):
            "\u{1B}[31mrefused\u{1B}[0m \(reason)\(team.map { " from \($0)" } ?? ""): \(TerminalText.escaped(why))"
        case let .hint(team, message, page, hint, cost, charged, _):
            "\(team) was given hint \(hint) of \(message.prefix(8)) page \(page)"
                + (!charged
                    ? " again (not charged twice)" : cost == 0 ? " (free)" : " (\(cost) point\(cost == 1 ? "" : "s"))")
        case let .adjusted(team, points, reason, _):
            "\(team) \(points > 0 ? "+" : "")\(points) point\(abs(points) == 1 ? "" : "s"): \(TerminalText.escaped(reason))"
        case let .asked(team, text, _, _):
            "\(team) \u{1B}[1;36masks\u{1B}[0m: \(TerminalText.escaped(text))"
        case let .submitted(team, message, page, kind, _, _):
            "\(team) submitted \(kind == "text" ? "a text" : "a photo") for mission \(message.short) page \(page)"
        case let .judged(team, message, page, accepted, points, reason, _):
            "\(team) mission \(message.short) page \(page) "
                + (accepted
                    ? "\u{1B}[32maccepted\u{1B}[0m: \(points) point\(points == 1 ? "" : "s")"
                    : "\u{1B}[31mrejected\u{1B}[0m") + (reason.isEmpty ? "" : ": \(TerminalText.escaped(reason))")
        }
    }
}
