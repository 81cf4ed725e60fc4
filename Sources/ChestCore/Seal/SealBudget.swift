/// What one message may ask of a reader's seal worker for one fix (docs/SECURITY.md "A message's share of the
/// reader"). A reader derives one key per grid (salt and cost) whose search area holds the fix, so a file laying many
/// grids over one area at the cap's cost would keep a core and a gibibyte busy for as long as the reader walks there.
/// Past the budget the file is set aside with the reason; under it, the seal worker's queue shares time by sender
/// (`CellQueue`).
package enum SealBudget {
    /// Format 3's first place cost (4 passes, 768 MiB): the budget is eight grids of it.
    package static let unit = SealCost(passes: 4, memory: 768 << 20)
    /// Argon2id work one fix may ask of a message, in passes × bytes over every lane (`SealCost.work`): 24 GiB-passes,
    /// eight grids at `unit`, more than a message `compose` writes asks with places alone (one grid per cell width in
    /// its area; a PIN set counts as a grid of its own).
    package static let perFix = 8 * unit.work

    /// How far outside its area a grid is still tried: the reader may stand at the edge of a place on the rim.
    static let slack = 1000.0

    private struct Family: Hashable {
        var salt: [UInt8]
        var cost: SealCost
        /// A PIN (or answer) set derives with its page's PIN (or answer): a family of its own.
        var pinPage: Int?
    }

    /// Why a message's sealed places ask too much of a reader, or nil.
    package static func problem(_ pages: some Collection<Page>) -> String? {
        // A format 2 grid states no area: a reader tries it wherever it is (`CellGrid.mayHold`), so it counts at every
        // point (nil here).
        var families: [Family: SearchArea?] = [:]
        for (index, page) in pages.enumerated() {
            for set in LockSetName.allCases {
                guard case let .cells(salt, cost, _)? = page.sealed?.slots[set] else { continue }
                let grid = page[set].lazy.compactMap { if case let .sealedLocation(grid) = $0 { grid } else { nil } }
                    .first
                guard let grid else { continue }
                families[
                    Family(
                        salt: salt, cost: cost,
                        pinPage: page[set].contains(.sealedPIN) || page[set].contains(.answer) ? index + 1 : nil)] =
                    .some(grid.area)
            }
        }
        // A fix asks for the grids whose areas hold it. The places where most overlap are near the areas' centres or
        // between two of them: those points are weighed (a message has at most ten places, so 55 points at most).
        let centres = families.values.compactMap { $0?.center }
        // With no area at all, one point stands for everywhere.
        var points = centres.isEmpty ? [Coordinate(latitude: 0, longitude: 0)] : centres
        for (i, a) in centres.enumerated() {
            for b in centres[(i + 1)...] {
                points.append(
                    Coordinate(latitude: (a.latitude + b.latitude) / 2, longitude: (a.longitude + b.longitude) / 2))
            }
        }
        var worst = (work: 0.0, runs: 0)
        for point in points {
            let holding = families.filter { family in
                family.value.map { $0.center.distance(to: point) <= $0.radius + slack } ?? true
            }
            let work = holding.keys.reduce(0.0) { $0 + $1.cost.work }
            if work > worst.work { worst = (work, holding.count) }
        }
        guard worst.work > perFix else { return nil }
        return String(
            printf:
                "its sealed places ask up to %d Argon2id runs (%.0f GiB-passes) of a reader for one fix, over the budget of %.0f; set aside so that it cannot hold the reader's seal worker",
            worst.runs, worst.work / Double(1 << 30), perFix / Double(1 << 30))
    }
}
