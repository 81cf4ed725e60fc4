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
    /// Each sender's public key and name once, which the messages share. Kept after their messages go.
    private var senders = SenderInterning()
    /// The chest IDs of the messages filed under another ID than their own (`StoredMessage.filing`), by their own
    /// ID: empty unless two senders' messages share an ID.
    private var filed: [MessageID: [MessageID]] = [:]

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
            senders.share(&newValue.message)
            if let position = position(of: id) {
                values[Int(position)] = newValue
            } else {
                if newValue.filing != 0 { filed[newValue.message.id, default: []].append(id) }
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
        if values[position].filing != 0 {
            let own = values[position].message.id
            filed[own]?.removeAll { $0 == id }
            if filed[own]?.isEmpty == true { filed[own] = nil }
        }
        let last = values.count - 1
        if position != last {
            values.swapAt(position, last)
            positions.move(values[position].id, from: Int32(last), to: Int32(position))
        }
        return values.removeLast()
    }

    /// Every message whose own ID is `id`, whoever sealed it: more than one when senders share an ID.
    package func all(withID id: MessageID) -> [StoredMessage] {
        let own = self[id].flatMap { $0.message.id == id ? [$0] : nil } ?? []
        return own + (filed[id] ?? []).compactMap { self[$0] }
    }

    /// The message of this sender with this ID, under whichever chest ID it is filed.
    package func message(_ identity: MessageIdentity) -> StoredMessage? {
        func matches(_ stored: StoredMessage) -> Bool {
            stored.message.id == identity.id && (stored.message.seal?.publicKey ?? []) == identity.key
        }
        if let own = self[identity.id], matches(own) { return own }
        return filed[identity.id]?.lazy.compactMap { self[$0] }.first(where: matches)
    }

    /// The filing number a new message of `identity` gets: 0 (its own ID) when no message holds that chest ID,
    /// else the first filed ID that none holds, nor `taken` (chest IDs given in the same batch); nil when all are.
    package func filing(for identity: MessageIdentity, taken: Set<MessageID> = []) -> UInt16? {
        func free(_ id: MessageID) -> Bool { self[id] == nil && !taken.contains(id) }
        if free(identity.id) { return 0 }
        return (1...UInt16.max).first { free(identity.id.filed($0, key: identity.key)) }
    }

    package mutating func reserveCapacity(_ count: Int) {
        values.reserveCapacity(count)
        let current = values
        positions.reserveCapacity(count) { current[Int($0)].id }
    }

    private func position(of id: MessageID) -> Int32? { positions.position(of: id) { values[Int($0)].id } }
}
