import ChestCore
import Foundation

extension PreviewCommand {
    /// A page's hints, in order, and how each opens (docs/FORMAT.md "Hints"): a quest's with their text; a file's
    /// text is sealed, so only how it opens.
    static func hintLines(draft: [HintDraft], file: [PageHint]?) -> [String] {
        if let file, !file.isEmpty {
            return file.enumerated().map { index, hint in
                "  hint \(index + 1): " + way(after: hint.after, cost: hint.cost, keyInFile: hint.key != nil) + "; its text is sealed"
            }
        }
        return draft.enumerated().flatMap { index, hint in
            ["  hint \(index + 1): " + TerminalText.escaped(hint.text),
             "    " + way(after: hint.after, cost: hint.cost, keyInFile: hint.cost == nil || hint.after != nil)]
        }
    }

    private static func way(after: Int?, cost: Int?, keyInFile: Bool) -> String {
        var words = after.map { "opens by itself \(Wording.duration(Double($0))) after the page becomes the reader's next goal" }
            ?? (keyInFile ? "opens when the reader asks (chest hint)" : "given only by the hunt's board")
        if let cost, cost > 0 { words += ", costs \(cost) point\(cost == 1 ? "" : "s") from the board" }
        return words
    }
}
