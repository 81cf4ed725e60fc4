import ChestCore
import ChestSeal

/// Points in a hunt (docs/HUNTS.md "Points", "What the board credits"): the board scores a page only on a proven
/// receipt, and only a sealed page gives one. A page without locks sends no receipt at all; a guarded page (held
/// only by a visible place, a time, the weather, an altitude, or in format 2 by a place alone) has its key in the
/// file, so its receipt proves only that the file was held. Points on such a page would never be counted.
extension Composer {
    /// Why `points` cannot be scored on a page of these sets, in a sentence that says what to add; nil when they
    /// can (or are 0, or left to the default).
    static func unprovablePoints(_ points: Int?, sets: [PageSealer.SetDraft], page: Int, version: Int) -> String? {
        guard let points, points > 0 else { return nil }
        let worth = "page \(page) is worth \(points) point\(points == 1 ? "" : "s") (--points, or points: in a quest)"
        let fix =
            "; seal it with a secret in every set (a place without ,visible, a PIN, an answer or a release), or make it worth 0"
        let locked = sets.filter { !$0.locks.isEmpty }
        guard !locked.isEmpty else {
            return worth
                + ", but a page without locks opens for every reader and sends the board no receipt, so nothing can "
                + "prove it and the board never counts its points" + fix
        }
        let probe = Page(
            text: "", setA: sets[0].locks, setB: sets.count > 1 ? sets[1].locks : [],
            sealed: SealedPage(ciphertext: [], slots: [:], version: version))
        switch probe.protection {
        case .sealed:
            return nil
        case .recoverable:
            return worth + ", but in format 2 its place alone can be recovered from the file, so its receipt proves "
                + "only that the file was held and the board never counts its points; compose in format 3 (the default), "
                + "add a PIN to the place's set, or make it worth 0"
        case .guarded, .unsealed:
            return worth
                + ", but a set of it holds no secret (a visible place, a time, the weather or an altitude only "
                + "decide when it opens): its key is in the file, so its receipt proves only that the file was held and the "
                + "board never counts its points" + fix
        }
    }
}
