/// The engine's messages by ID: the messages side by side in one array, each ID's place in a dictionary of 4-byte
/// positions.
///
/// A dictionary of the messages themselves keeps room for a whole message in every bucket, and it has 16,384 of
/// them for 10,000 messages: 3.3 MB, where this keeps the 10,000 and a dictionary of positions (docs/BENCHMARKS.md
/// "Memory"). Order is as a dictionary's: none to rely on.
package struct MessageTable: Sendable {
    /// The messages, in no particular order.
    package private(set) var values: [StoredMessage] = []
    /// Each message's key, at its index in `values`.
    private var ids: [MessageID] = []
    private var positions: [MessageID: Int32] = [:]
    /// Each sender's public key once: the messages' seals share these buffers instead of a copy each. Kept after
    /// their messages go; a key is 64 bytes.
    private var senderKeys: Set<[UInt8]> = []

    package init() {}

    package var count: Int { values.count }
    package var isEmpty: Bool { values.isEmpty }
    /// The IDs, in the order of `values`.
    package var keys: [MessageID] { ids }

    /// The message filed under `id`; setting nil removes it.
    package subscript(id: MessageID) -> StoredMessage? {
        get { positions[id].map { values[Int($0)] } }
        set {
            guard var newValue else {
                removeValue(forKey: id)
                return
            }
            if let key = newValue.message.seal?.publicKey {
                newValue.message.seal?.share(senderKeys.insert(key).memberAfterInsert)
            }
            if let position = positions[id] {
                values[Int(position)] = newValue
            } else {
                positions[id] = Int32(values.count)
                values.append(newValue)
                ids.append(id)
            }
        }
    }

    /// Removes the message filed under `id`: the last one takes its place.
    @discardableResult
    package mutating func removeValue(forKey id: MessageID) -> StoredMessage? {
        guard let position = positions.removeValue(forKey: id).map(Int.init) else { return nil }
        let last = values.count - 1
        if position != last {
            values.swapAt(position, last)
            ids.swapAt(position, last)
            positions[ids[position]] = Int32(position)
        }
        ids.removeLast()
        return values.removeLast()
    }

    /// Makes room for `count` messages in all, so that loading a chest grows nothing.
    package mutating func reserveCapacity(_ count: Int) {
        values.reserveCapacity(count)
        ids.reserveCapacity(count)
        positions.reserveCapacity(count)
    }
}
