import ChestCore
import FoundationEssentials

extension Output {
    /// A page's hints as `read` shows them: the open ones with their text, the others with how they open.
    static func hintLines(_ page: PageReport, id: MessageID, timeZone: Zone, now: Date = Date()) -> [String] {
        (page.hints ?? []).flatMap { hint -> [String] in
            let cost = hint.cost.map { $0 > 0 ? " · costs \($0) point\($0 == 1 ? "" : "s")" : " · free" } ?? ""
            if hint.open, let text = hint.text {
                let lines = TerminalText.escaped(text, keepingNewlines: true).split(
                    separator: "\n", omittingEmptySubsequences: false)
                return ["  hint \(hint.number)\(cost): " + (lines.first.map(String.init) ?? "")]
                    + lines.dropFirst().map { "    " + $0 }
            }
            return [
                "  hint \(hint.number) (closed\(cost)): "
                    + hintWay(hint, page: page.number, id: id, timeZone: timeZone, now: now)
            ]
        }
    }

    /// How a closed hint opens, in a few words.
    static func hintWay(_ hint: HintReport, page: Int, id: MessageID, timeZone: Zone, now: Date) -> String {
        let ask = "chest hint \(id.short)\(page == 1 ? "" : " --page \(page)")"
        if page == 0 { return "" }
        if let opensAt = hint.opensAt {
            let when =
                "opens by itself at \(LockReason.format(opensAt, timeZone)) (in \(NavGoal.countdown(opensAt.timeIntervalSince(now))))"
            return hint.cost == nil ? when : when + ", or ask the organiser: " + ask
        }
        if let after = hint.after, hint.byOrganiser {
            let earlier = hint.cost == 0 ? "or earlier, free: " : "or earlier for its cost: "
            return
                "the organiser's board gives it free \(Wording.duration(Double(after))) after this page becomes your next goal "
                + "(by the board's clock), " + earlier + ask
        }
        if let after = hint.after {
            let when = "opens by itself \(Wording.duration(Double(after))) after this page becomes your next goal"
            return hint.cost == nil ? when : when + ", or ask the organiser: " + ask
        }
        return hint.byOrganiser ? "the organiser gives it: " + ask : "ask for it: " + ask
    }
}
