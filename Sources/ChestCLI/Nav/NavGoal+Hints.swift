import ChestCore
import FoundationEssentials

extension NavGoal {
    /// A page's hints as nav shows them under the goal picked: the open ones' text, then how the next one opens.
    /// "hint 1: Look under the bench. · hint 2 opens in 0:04:10" (docs/FORMAT.md "Hints").
    static func hintLine(_ page: PageReport, id: MessageID, _ context: NavContext) -> String? {
        guard let hints = page.hints, !hints.isEmpty else { return nil }
        var parts = hints.filter(\.open).map { "hint \($0.number): " + TerminalText.escaped($0.text ?? "") }
        if let next = hints.first(where: { !$0.open }) {
            if let opensAt = next.opensAt {
                parts.append("hint \(next.number) opens in \(countdown(opensAt.timeIntervalSince(context.now)))")
            } else if next.after == nil || next.cost != nil {
                let cost = next.cost.map { $0 > 0 ? " (\($0) point\($0 == 1 ? "" : "s"))" : "" } ?? ""
                parts.append(
                    "hint \(next.number)\(cost): chest hint \(id.short)\(page.number == 1 ? "" : " --page \(page.number)")"
                )
            } else {
                parts.append(
                    "hint \(next.number) opens \(Wording.duration(Double(next.after ?? 0))) after this page becomes the goal"
                )
            }
        }
        return parts.joined(separator: " · ")
    }
}
