import ChestCore
import ChestSeal

/// The pages of one message that fall to one search (docs/SECURITY.md "One sweep, many places"): places laid on one
/// grid share its salt, so each cell's derivation (with each PIN, for places sealed with one) is tried against all of
/// them at once. `compose` prints one line per such group, with the group's figure.
struct SharedSweeps {
    private struct Key: Hashable {
        var salt: [UInt8]
        var cost: SealCost
        var pinDigits: Int?
    }

    private var groups: [Key: (pages: [Int], grid: CellGrid, brute: BruteForce)] = [:]
    private var order: [Key] = []

    /// Files the sealed places of a page's sets.
    mutating func add(_ sets: [PageSealer.SetDraft], page: Int, version: Int, excluded: (SearchArea) -> Double) {
        guard version >= 3 else { return }
        for set in sets {
            // A place with an answer lock is searched with every answer: priced on its own (Composer.answerPrice).
            guard set.hidden != nil, set.answers.isEmpty, let grid = set.grid, let area = grid.area, let salt = set.gridSalt else { continue }
            let key = Key(salt: salt, cost: set.effectiveCost, pinDigits: set.pin?.count)
            if groups[key] == nil {
                order.append(key)
                groups[key] = ([], grid, BruteForce(grid: grid, pinDigits: set.pin?.count, cost: set.effectiveCost,
                                                    excluded: excluded(area), version: version))
            }
            if groups[key]?.pages.last != page { groups[key]?.pages.append(page) }
        }
    }

    /// "pages 1, 2 and 3 lie on one grid (…): these 3 pages share one search: whoever sweeps the area opens all 3 for
    /// the price of one, about 10 core-days for the group"; a grid `kept` from earlier messages says so.
    func sentences(kept: (CellGrid) -> Bool) -> [String] {
        order.compactMap { key -> String? in
            guard let group = groups[key] else { return nil }
            let earlier = kept(group.grid)
                ? "; the grid is one you laid earlier places on (grids.json), and they fall to the same sweep" : ""
            let area = group.grid.area.map(\.description) ?? ""
            let figure = BruteForce.time(group.brute.coreHours)
            guard group.pages.count > 1 else {
                return earlier.isEmpty ? nil
                    : "page \(group.pages[0]) lies on a grid you laid earlier places on (\(area)): one sweep of the area, about \(figure), opens them all"
            }
            let count = group.pages.count
            let names = group.pages.dropLast().map(String.init).joined(separator: ", ") + " and \(group.pages.last!)"
            let pins = key.pinDigits.map { " (each cell tried with every \($0)-digit PIN)" } ?? ""
            return "pages \(names) lie on one grid (\(area)): these \(count) pages share one search: whoever sweeps the area opens all \(count) for the price of one, about \(figure) for the group\(pins)\(earlier)"
        }
    }
}
