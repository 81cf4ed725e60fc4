import ChestCore
import ChestIO
import FoundationEssentials

/// The frame `chest board` draws: a header, a row per team, what was refused, the latest events.
struct BoardScreen {
    let hunt: HuntFile
    var connection = BrokerState.connecting
    /// The address of the board in a browser, when it is served.
    var web: String?

    func render(_ feed: BoardFeed, columns: Int, rows: Int, now: Date) -> [String] {
        var lines = [
            "\u{1B}[1mchest board\u{1B}[0m \u{2014} \u{201C}\(TerminalText.escaped(hunt.name))\u{201D} on \(hunt.broker): \(connection)"
                + (web.map { " \u{2014} \($0)" } ?? ""),
            feed.windowLine(at: now).map { "\u{1B}[1m\($0)\u{1B}[0m" } ?? "",
            pad("TEAM", 18) + pad("POINTS", 8) + pad("ONLINE", 9) + pad("PAGES", 7) + pad("LAST CREDITED", 30)
                + "TRUST (CLAIMED)",
        ]
        let lookalikes = KnownSenders.lookalikes(among: hunt.teams.map(\.name.rawValue) + feed.board.teams.map(\.name))
        for team in feed.board.leaderboard() {
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
        let ignored = Self.ignoredLine(feed.gate)
        if !ignored.isEmpty { lines += ["", ignored.trimmingNewlines()] }
        lines += ["", "\u{1B}[1mlatest\u{1B}[0m"]
        let room = max(rows - lines.count - 1, 0)
        lines += feed.latestLines(room: room)
        return lines.map { String($0.prefix(columns + 16)) }
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
        }
    }
}
