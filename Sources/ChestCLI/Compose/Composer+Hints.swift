import ChestCore
import ChestSeal
import FoundationEssentials

/// A page's hints in `compose` (docs/FORMAT.md "Hints", docs/HUNTS.md "Hints"): each sealed under a key of its own.
/// Outside a hunt every key is in the file. In a hunt every key is only in the organiser's hunt file, so only the
/// board gives it: on asking, for its cost, or free once its delay has run; a delayed hint's key in the file would be
/// free to whoever reads the file (docs/HUNTS.md "Hints").
extension Composer {
    static func sealedHints(_ drafts: [HintDraft], id: MessageID, page: Int, version: Int, hunt: Bool)
        -> [(hint: PageHint, kept: HuntMessage.Hint)]
    {
        drafts.enumerated().map { index, draft in
            let cost = hunt ? draft.cost ?? 0 : nil
            let (hint, key) = HintSealer.seal(
                draft.text, id: id, page: page, hint: index + 1, after: draft.after, cost: cost,
                keyInFile: !hunt, version: version)
            return (
                hint,
                HuntMessage.Hint(
                    key: Data(key).base64EncodedString(), cost: cost ?? 0, after: draft.after.map(Double.init))
            )
        }
    }

    /// "page 2: 2 hints: 1 after 10 min, 1 given by the hunt's board (3 points)".
    static func hintSentence(_ hints: [PageHint], page: Int) -> String? {
        guard !hints.isEmpty else { return nil }
        let parts = hints.enumerated().map { index, hint in
            var words = "hint \(index + 1) "
            if let after = hint.after, hint.key == nil {
                words +=
                    "is given free by the hunt's board \(Wording.duration(Double(after))) after the page becomes the team's next goal, or earlier"
            } else if let after = hint.after {
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

    /// The warning outside a hunt: a delayed hint's key is in the file, and only the reader's chestd waits
    /// (docs/FORMAT.md "Hints").
    static func delayedHintWarning(_ drafts: [HintDraft], page: Int, hunt: Bool) -> String? {
        let delayed = drafts.indices.filter { drafts[$0].after != nil }.map { String($0 + 1) }
        guard !hunt, !delayed.isEmpty else { return nil }
        let one = delayed.count == 1
        return "page \(page): "
            + (one ? "hint \(delayed[0]) has" : "hints " + delayed.joined(separator: ", ") + " have")
            + " a delay (--hint-after), but " + (one ? "its key is" : "their keys are")
            + " in the file: whoever has the file can read "
            + (one ? "it" : "them") + " at once; only the reader's chestd waits (with --hunt FILE the "
            + (one ? "key stays" : "keys stay") + " with the organiser's board)"
    }
}
