import Testing

@testable import ChestCore

/// A position table finds what a dictionary of positions would, through any mix of insertions, removals and moves,
/// with keys whose hashes collide as much as a table can bear.
@Suite struct PositionTableTests {
    /// A key whose hash is its value divided by `spread`: with a spread of 7, runs of seven keys share one home.
    struct Key: Hashable {
        var value: Int
        var spread: Int
        func hash(into hasher: inout Hasher) { hasher.combine(value / spread) }
        static func == (a: Key, b: Key) -> Bool { a.value == b.value }
    }

    @Test(arguments: [1, 7, 1_000])
    func randomChangesFindWhatADictionaryWould(spread: Int) {
        var generator = SeededGenerator(seed: UInt64(spread))
        // The owner's array, with swap-removal as MessageTable does it.
        var owned: [Key] = []
        var table = PositionTable()
        var model: [Key: Int32] = [:]
        for _ in 0..<6_000 {
            let key = Key(value: Int.random(in: 0..<400, using: &generator), spread: spread)
            if Bool.random(using: &generator), model[key] == nil {
                owned.append(key)
                let current = owned
                table.insert(Int32(owned.count - 1), for: key) { current[Int($0)] }
                model[key] = Int32(owned.count - 1)
            } else if model[key] != nil {
                let current = owned
                let removed = table.remove(key) { current[Int($0)] }
                #expect(removed == model.removeValue(forKey: key))
                let position = Int(removed!)
                let last = owned.count - 1
                if position != last {
                    owned.swapAt(position, last)
                    table.move(owned[position], from: Int32(last), to: Int32(position))
                    model[owned[position]] = Int32(position)
                }
                owned.removeLast()
            } else {
                #expect(table.remove(key) { owned[Int($0)] } == nil)
            }
            #expect(table.count == model.count)
        }
        for value in 0..<400 {
            let key = Key(value: value, spread: spread)
            #expect(table.position(of: key) { owned[Int($0)] } == model[key], "\(value)")
        }
    }

    @Test func aReservedTableHoldsItsKeysWithoutGrowing() {
        let owned = (0..<10_000).map { Key(value: $0, spread: 1) }
        var table = PositionTable()
        table.reserveCapacity(owned.count) { owned[Int($0)] }
        for (position, key) in owned.enumerated() { table.insert(Int32(position), for: key) { owned[Int($0)] } }
        #expect(table.count == 10_000)
        #expect(owned.indices.allSatisfy { table.position(of: owned[$0]) { owned[Int($0)] } == Int32($0) })
    }
}
