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

    private var groups: [Key: (pages: [Int], grid: CellGrid, areas: [SearchArea], version: Int)] = [:]
    private var order: [Key] = []

    /// Files the sealed places of a page's sets.
    mutating func add(_ sets: [PageSealer.SetDraft], page: Int, version: Int) {
        guard version >= 3 else { return }
        for set in sets {
            // A place with an answer lock is searched with every answer: priced on its own (Composer.answerPrice).
            guard set.hidden != nil, set.answers.isEmpty, let grid = set.grid, let area = grid.area,
                let salt = set.gridSalt
            else { continue }
            let key = Key(salt: salt, cost: set.effectiveCost, pinDigits: set.pin?.count)
            if groups[key] == nil {
                order.append(key)
                groups[key] = ([], grid, [], version)
            }
            if groups[key]?.pages.last != page { groups[key]?.pages.append(page) }
            if groups[key]?.areas.contains(area) == false { groups[key]?.areas.append(area) }
        }
    }

    /// The figure of one sweep of a group: the lattice over the union of its places' areas.
    private func brute(_ key: Key) -> BruteForce? {
        groups[key].map {
            BruteForce(grid: $0.grid, pinDigits: key.pinDigits, cost: key.cost, version: $0.version, swept: $0.areas)
        }
    }

    /// "pages 1, 2 and 3 lie on one grid (…): these 3 pages share one search: whoever sweeps the area opens all 3 for
    /// the price of one, about 10 core-days for the group"; a grid `kept` from earlier messages says so.
    func sentences(kept: ([UInt8]) -> Bool) -> [String] {
        order.compactMap { key -> String? in
            guard let group = groups[key], let brute = brute(key) else { return nil }
            let earlier =
                kept(key.salt)
                ? "; the grid is one you laid earlier places on (grids.json), and they fall to the same sweep" : ""
            let area =
                group.areas.count == 1
                ? group.grid.area.map(\.description) ?? ""
                : "their \(group.areas.count) default areas, \(BruteForce.grouped(SearchArea.union(group.areas) / 1e6)) km² in all"
            let figure = BruteForce.time(brute.coreHours)
            guard group.pages.count > 1 else {
                return earlier.isEmpty
                    ? nil
                    : "page \(group.pages[0]) lies on a grid you laid earlier places on (\(area)): each cell a sweep of its area derives (about \(figure) in all) is tried against them all at no extra cost"
            }
            let count = group.pages.count
            let names = group.pages.dropLast().map(String.init).joined(separator: ", ") + " and \(group.pages.last!)"
            let pins = key.pinDigits.map { " (each cell tried with every \($0)-digit PIN)" } ?? ""
            let swept = group.areas.count == 1 ? "the area" : "their areas"
            return
                "pages \(names) lie on one grid (\(area)): these \(count) pages share one search: whoever sweeps \(swept) opens all \(count) for the price of one, about \(figure) for the group\(pins)\(earlier)"
        }
    }
}
