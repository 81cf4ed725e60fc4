import ChestCore
import FoundationEssentials

extension PreviewCommand {
    /// A page's hints, in order, and how each opens (docs/FORMAT.md "Hints"): a quest's with their text; a file's
    /// text is sealed, so only how it opens.
    static func hintLines(draft: [HintDraft], file: [PageHint]?) -> [String] {
        if let file, !file.isEmpty {
            return file.enumerated().map { index, hint in
                "  hint \(index + 1): " + way(after: hint.after, cost: hint.cost, keyInFile: hint.key != nil)
                    + "; its text is sealed"
            }
        }
        return draft.enumerated().flatMap { index, hint in
            [
                "  hint \(index + 1): " + TerminalText.escaped(hint.text),
                "    " + way(after: hint.after, cost: hint.cost, keyInFile: hint.cost == nil),
            ]
        }
    }

    /// A hunt's hint (its key not in the file) is given by the board, free once its delay has run (docs/HUNTS.md "Hints").
    private static func way(after: Int?, cost: Int?, keyInFile: Bool) -> String {
        var words =
            switch (after, keyInFile) {
            case let (after?, true):
                "opens by itself \(Wording.duration(Double(after))) after the page becomes the reader's next goal"
            case let (after?, false):
                "given free by the hunt's board \(Wording.duration(Double(after))) after the page becomes the team's next goal, or earlier"
            case (nil, true): "opens when the reader asks (chest hint)"
            case (nil, false): "given only by the hunt's board"
            }
        if let cost, cost > 0 { words += ", costs \(cost) point\(cost == 1 ? "" : "s") from the board" }
        return words
    }
}
