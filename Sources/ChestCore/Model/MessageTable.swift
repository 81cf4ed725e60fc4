/// The engine's messages by ID: the messages side by side in one array, each ID's place in a table of 4-byte
/// positions.
///
/// A dictionary of the messages themselves keeps room for a whole message in every bucket, and it has 16,384 of
/// them for 10,000 messages: 3.3 MB, where this keeps the 10,000 and their positions by ID, found through the IDs
/// of the messages themselves (docs/BENCHMARKS.md "Memory"). Order is as a dictionary's: none to rely on.
package struct MessageTable: Sendable {
    /// The messages, in no particular order.
    package private(set) var values: [StoredMessage] = []
    private var positions = PositionTable()
    /// Each sender's public key once: the messages' seals share these buffers instead of a copy each. Kept after
    /// their messages go; a key is 64 bytes.
    private var senderKeys: Set<[UInt8]> = []

    package init() {}

    package var count: Int { values.count }
    package var isEmpty: Bool { values.isEmpty }
    /// The IDs, in the order of `values`.
    package var keys: [MessageID] { values.map(\.id) }

    package subscript(id: MessageID) -> StoredMessage? {
        get { position(of: id).map { values[Int($0)] } }
        set {
            guard var newValue else {
                removeValue(forKey: id)
                return
            }
            if let key = newValue.message.seal?.publicKey {
                newValue.message.seal?.share(senderKeys.insert(key).memberAfterInsert)
            }
            if let position = position(of: id) {
                values[Int(position)] = newValue
            } else {
                values.append(newValue)
                let current = values
                positions.insert(Int32(current.count - 1), for: id) { current[Int($0)].id }
            }
        }
    }

    /// Takes the message out, moving the last one into its place.
    @discardableResult
    package mutating func removeValue(forKey id: MessageID) -> StoredMessage? {
        let removed: Int32?
        do {
            // A second reference to the messages only while the table reads their IDs: `swapAt` below would copy
            // them all if it were still held.
            let current = values
            removed = positions.remove(id) { current[Int($0)].id }
        }
        guard let position = removed.map(Int.init) else { return nil }
        let last = values.count - 1
        if position != last {
            values.swapAt(position, last)
            positions.move(values[position].id, from: Int32(last), to: Int32(position))
        }
        return values.removeLast()
    }

    package mutating func reserveCapacity(_ count: Int) {
        values.reserveCapacity(count)
        let current = values
        positions.reserveCapacity(count) { current[Int($0)].id }
    }

    private func position(of id: MessageID) -> Int32? { positions.position(of: id) { values[Int($0)].id } }
}
