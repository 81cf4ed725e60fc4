/// Where each key sits in an array its owner keeps, found by the key's hash: 4 bytes a slot (a position, or empty),
/// where a `Dictionary` from key to position keeps every key a second time (20 to 28 bytes a slot at 10,000
/// messages; docs/BENCHMARKS.md "Memory"). The owner passes the key at a position to each call that needs it.
///
/// Open addressing with linear probing, at most half full; a removal moves the entries that follow back into the
/// gap rather than leaving a marker, so a lookup never walks past removed keys.
package struct PositionTable: Sendable {
    private static let empty: Int32 = -1

    private var slots: [Int32] = []
    package private(set) var count = 0

    package init() {}

    /// The position filed for `key`, or nil.
    package func position<Key: Hashable>(of key: Key, keyAt: (Int32) -> Key) -> Int32? {
        slot(of: key, keyAt: keyAt).map { slots[$0] }
    }

    /// Files `position` for `key`, which is not filed yet.
    package mutating func insert<Key: Hashable>(_ position: Int32, for key: Key, keyAt: (Int32) -> Key) {
        if (count + 1) * 2 > slots.count { rehash(capacity: max(16, slots.count * 2), keyAt: keyAt) }
        var slot = home(of: key)
        while slots[slot] != Self.empty { slot = next(slot) }
        slots[slot] = position
        count += 1
    }

    /// Takes `key` out and returns the position it had, or nil if it was not filed.
    @discardableResult
    package mutating func remove<Key: Hashable>(_ key: Key, keyAt: (Int32) -> Key) -> Int32? {
        guard var gap = slot(of: key, keyAt: keyAt) else { return nil }
        let removed = slots[gap]
        slots[gap] = Self.empty
        count -= 1
        // Every entry of the run after the gap whose home is not between the gap and itself would no longer be
        // found past the gap: it moves into it, and its own slot becomes the gap.
        var slot = next(gap)
        while slots[slot] != Self.empty {
            let home = home(of: keyAt(slots[slot]))
            if distance(from: home, to: slot) >= distance(from: gap, to: slot) {
                slots[gap] = slots[slot]
                slots[slot] = Self.empty
                gap = slot
            }
            slot = next(slot)
        }
        return removed
    }

    /// Files `key`, found at `old`, at `new`: its owner moved it in its array.
    package mutating func move<Key: Hashable>(_ key: Key, from old: Int32, to new: Int32) {
        guard !slots.isEmpty else { return }
        var slot = home(of: key)
        while slots[slot] != Self.empty {
            if slots[slot] == old {
                slots[slot] = new
                return
            }
            slot = next(slot)
        }
    }

    /// Makes room for `capacity` keys at once, as for a chest loaded whole.
    package mutating func reserveCapacity<Key: Hashable>(_ capacity: Int, keyAt: (Int32) -> Key) {
        var size = max(16, slots.count)
        while size < capacity * 2 { size *= 2 }
        if size > slots.count { rehash(capacity: size, keyAt: keyAt) }
    }

    private func slot<Key: Hashable>(of key: Key, keyAt: (Int32) -> Key) -> Int? {
        guard !slots.isEmpty else { return nil }
        var slot = home(of: key)
        while slots[slot] != Self.empty {
            if keyAt(slots[slot]) == key { return slot }
            slot = next(slot)
        }
        return nil
    }

    private mutating func rehash<Key: Hashable>(capacity: Int, keyAt: (Int32) -> Key) {
        let filed = slots
        slots = Array(repeating: Self.empty, count: capacity)
        for position in filed where position != Self.empty {
            var slot = home(of: keyAt(position))
            while slots[slot] != Self.empty { slot = next(slot) }
            slots[slot] = position
        }
    }

    private func home<Key: Hashable>(of key: Key) -> Int { key.hashValue & (slots.count - 1) }
    private func next(_ slot: Int) -> Int { (slot + 1) & (slots.count - 1) }
    private func distance(from start: Int, to end: Int) -> Int { (end - start) & (slots.count - 1) }
}
