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

    /// Messages of two keys sharing IDs, one of each pair filed under another chest ID: the table finds every one by
    /// its ID and by its identity through any mix of changes.
    @Test func messagesSharingAnIDAreFoundByTheirIdentity() {
        var generator = SeededGenerator(seed: 61)
        let pool = (0..<30).flatMap { n -> [StoredMessage] in
            let own = F.message(UInt8(n), pages: [])
            var other = own
            other.seal = Seal(publicKey: [UInt8](repeating: 8, count: 32), signature: [UInt8](repeating: 9, count: 64))
            return [
                F.stored(own),
                StoredMessage(
                    message: other, state: MessageState(ingestedAt: F.t0), chest: .regular, sentByYou: false, filing: 1),
            ]
        }
        var table = MessageTable()
        var dictionary: [MessageID: StoredMessage] = [:]
        for _ in 0..<2_000 {
            let stored = pool[Int.random(in: 0..<pool.count, using: &generator)]
            if Bool.random(using: &generator) {
                table.removeValue(forKey: stored.id)
                dictionary[stored.id] = nil
            } else {
                table[stored.id] = stored
                dictionary[stored.id] = stored
            }
        }
        for n in 0..<30 {
            let id = F.id(UInt8(n))
            let expected = dictionary.values.filter { $0.message.id == id }
            #expect(Set(table.all(withID: id).map(\.id)) == Set(expected.map(\.id)))
            for stored in pool where stored.message.id == id {
                #expect(table.message(stored.message.identity) == dictionary[stored.id])
            }
        }
    }
}
