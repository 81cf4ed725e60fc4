import Foundation
import Testing

@testable import ChestCore

private typealias F = CoreFixture

/// The engine's message table behaves as the dictionary it replaced, through any mix of additions, replacements and
/// removals.
@Suite struct MessageTableTests {
    @Test func randomChangesLeaveTheSameContentsAsADictionary() {
        var generator = SeededGenerator(seed: 27)
        let pool = (0..<60).map { F.stored(F.message(UInt8($0), pages: [])) }
        var table = MessageTable()
        var dictionary: [MessageID: StoredMessage] = [:]
        for step in 0..<3_000 {
            var stored = pool[Int.random(in: 0..<pool.count, using: &generator)]
            switch Int.random(in: 0..<4, using: &generator) {
            case 0:
                #expect(table.removeValue(forKey: stored.id)?.id == dictionary.removeValue(forKey: stored.id)?.id)
            case 1:
                table[stored.id] = nil
                dictionary[stored.id] = nil
            default:
                stored.state.ingestedAt = Date(timeIntervalSince1970: Double(step))
                table[stored.id] = stored
                dictionary[stored.id] = stored
            }
            #expect(table.count == dictionary.count && table.isEmpty == dictionary.isEmpty)
        }
        #expect(Set(table.keys) == Set(dictionary.keys))
        #expect(table.keys == table.values.map(\.id))
        for (id, stored) in dictionary { #expect(table[id] == stored) }
        #expect(table[F.id(99)] == nil)
    }
}
