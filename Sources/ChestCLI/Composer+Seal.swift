import ChestCore
import ChestIO
import ChestSeal
import Foundation

/// `compose` in format 2 (docs/FORMAT.md "Format 2"): each page sealed under its own key, each set's key slot
/// made from its PIN and its location's cell.
extension Composer {
    /// The sealed pages, and one line per page saying how well each is protected.
    func sealedPages(_ draft: ComposeDraft, id: MessageID, fix: Fix?) throws -> (pages: [Page], report: [String]) {
        var pages: [Page] = [], report: [String] = []
        let cost = draft.sealCost.cost
        var releases = try draft.hunt.map(ReleaseKeys.init(huntPath:))
        for (index, draftPage) in draft.pages.enumerated() {
            let number = index + 1
            let setA = try sealedSet(draftPage.setA, fix, page: number, releases: &releases)
            let setB = try sealedSet(draftPage.setB, fix, page: number, releases: &releases)
            let pageKey = Sealer.randomBytes(SealedPage.keyBytes)
            let page = PageSealer.seal(text: draftPage.text, setA: setA, setB: setB, id: id, page: number, cost: cost,
                                       pageKey: pageKey)
            releases?.record(id, title: draft.title ?? "", page: number, key: pageKey, guarded: page.protection != .sealed)
            pages.append(page)
            report.append("page \(number): " + Self.protectionSentence(page, sets: [setA, setB], cost: cost))
        }
        try releases?.save()
        return (pages, report)
    }

    static func protectionSentence(_ page: Page, sets: [PageSealer.SetDraft], cost: SealCost) -> String {
        guard page.protection == .sealed else {
            return "guarded only: whoever has the file can decode it; add a PIN or a location lock to seal it"
        }
        if let release = sets.lazy.compactMap(\.release).first, sets.filter({ !$0.locks.isEmpty }).allSatisfy({ $0.release != nil }) {
            return "sealed until you release \u{201C}\(release.name)\u{201D} (chest hunt release \(release.name)): its key is a random 256-bit key"
        }
        let weakest = sets.filter { !$0.locks.isEmpty }.map { set in
            BruteForce(cellWidth: set.locks.lazy.compactMap { if case let .sealedLocation(grid) = $0 { grid.width } else { nil } }.first,
                       pinDigits: set.pin?.count, cost: cost)
        }.min { $0.guesses < $1.guesses }
        return weakest?.sentence ?? "sealed"
    }

    private func sealedSet(_ specs: [LockSpec], _ fix: Fix?, page: Int,
                           releases: inout ReleaseKeys?) throws -> PageSealer.SetDraft {
        var set = PageSealer.SetDraft(locks: [])
        for spec in specs {
            switch spec {
            case let .lock(.release(name)):
                guard let key = releases?.key(for: name) else {
                    throw ChestError("page \(page): release=\(name) needs --hunt FILE, the organiser's hunt file (chest hunt create)")
                }
                set.locks.append(.release(name))
                set.release = (name, key)
            case let .visible(inner):
                set.locks += try resolve([inner], fix, page: page)
            case let .pin(digits):
                set.locks.append(.sealedPIN)
                set.pin = digits
            case .lock(.location), .locationHere:
                guard case let .location(center, radius)? = try resolve([spec], fix, page: page).first else { continue }
                guard abs(center.latitude) + radius / Coordinate.earthRadius * 180 / .pi <= CellGrid.maximumLatitude else {
                    throw ChestError("page \(page): a sealed location works up to ±\(Int(CellGrid.maximumLatitude))° latitude; add ,visible to keep this one in the clear")
                }
                set.locks.append(.sealedLocation(CellGrid(center: center, radius: radius)))
                set.hidden = HiddenLocation(center: center, radius: radius)
            default:
                set.locks += try resolve([spec], fix, page: page)
            }
        }
        if set.release != nil && (set.pin != nil || set.hidden != nil) {
            throw ChestError("page \(page): a release is the only secret of its set; put the PIN or the hidden place in the other set, or add ,visible to the location")
        }
        return set
    }
}
