import ChestCore
import ChestSeal
import Foundation

/// `chest-bench seal hostile COUNT DIR LAT,LON`: the files of issue 45's "one sender, one share" for
/// scripts/bench-seal-share.sh, which measures what they take of a real chestd's core on a walk.
extension SealBench {
    /// Writes `count` files of one sender (its identity kept in `directory`/sender), each within the budget at its
    /// edge: four pages of two places on their own grids at `SealBudget.unit`, over a 2 km area around `center`, so
    /// that every fix of a walk there asks eight derivations of each file. Their key slots are random bytes: every
    /// key a reader derives is wrong, and the reader keeps deriving for as long as it walks there.
    static func writeHostile(_ count: Int, into directory: String, around center: Coordinate) throws {
        let identity = try Identity.loadOrCreate(at: directory + "/sender/chest/" + Identity.fileName)
        let area = SearchArea(center: center, radius: 2000)
        var generator = SystemRandomNumberGenerator()
        func place() -> (Lock, KeySlot) {
            (
                .sealedLocation(CellGrid(area: area, radius: 30, using: &generator)),
                .cells(
                    salt: Sealer.randomBytes(16), cost: SealBudget.unit,
                    wrapped: (0..<4).map { _ in Sealer.randomBytes(72) })
            )
        }
        for index in 1...count {
            let pages = (0..<4).map { _ in
                let a = place()
                let b = place()
                return Page(
                    text: "", setA: [a.0], setB: [b.0],
                    sealed: SealedPage(ciphertext: Sealer.randomBytes(296), slots: [.a: a.1, .b: b.1], version: 3))
            }
            precondition(SealBudget.problem(pages) == nil, "a hostile file must be within the budget")
            let message = Sealer.seal(
                Message(
                    id: MessageID(bytes: Sealer.randomBytes(16)), title: "Eight grids \(index)",
                    from: "Mallory", created: Date(), pages: pages), with: identity)
            try MessageFile.encode(message).write(to: URL(fileURLWithPath: directory + "/hostile-\(index).locked"))
        }
    }
}
