import ChestCore
import ChestSeal
import Foundation

/// A page's hints in `compose` (docs/FORMAT.md "Hints", docs/HUNTS.md "Hints"): each sealed under a key of its own.
/// Outside a hunt every key is in the file. In a hunt, a hint with a delay has its key in the file and in the
/// organiser's hunt file; one without a delay only in the organiser's, so only the board gives it.
extension Composer {
    static func sealedHints(_ drafts: [HintDraft], id: MessageID, page: Int, version: Int, hunt: Bool)
        -> [(hint: PageHint, kept: HuntMessage.Hint)] {
        drafts.enumerated().map { index, draft in
            let cost = hunt ? draft.cost ?? 0 : nil
            let (hint, key) = HintSealer.seal(draft.text, id: id, page: page, hint: index + 1, after: draft.after, cost: cost,
                                              keyInFile: !hunt || draft.after != nil, version: version)
            return (hint, HuntMessage.Hint(key: Data(key).base64EncodedString(), cost: cost ?? 0, after: draft.after.map(Double.init)))
        }
    }

    /// "page 2: 2 hints: 1 after 10 min, 1 given by the hunt's board (3 points)".
    static func hintSentence(_ hints: [PageHint], page: Int) -> String? {
        guard !hints.isEmpty else { return nil }
        let parts = hints.enumerated().map { index, hint in
            var words = "hint \(index + 1) "
            if let after = hint.after {
                words += "opens by itself \(Wording.duration(Double(after))) after the page becomes the next goal"
                if hint.isHunts { words += ", or earlier from the board" }
            } else {
                words += hint.key == nil ? "is given by the hunt's board" : "opens when asked (chest hint)"
            }
            if let cost = hint.cost, cost > 0 { words += " for \(cost) point\(cost == 1 ? "" : "s")" }
            return words
        }
        return "page \(page): " + parts.joined(separator: "; ")
    }
}
