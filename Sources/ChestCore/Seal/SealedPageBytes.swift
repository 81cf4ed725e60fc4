/// A sealed page's ciphertext, key slots and format in one byte buffer, as `SealedPage` keeps them: the format, the
/// ciphertext's length and bytes, then set A's and set B's slot, each a kind byte (0 for none) and its fields. Every
/// length is two or four bytes, little-endian; only `SealedPage` writes it, so reading trusts it.
enum SealedPageBytes {
    private enum Kind: UInt8 {
        case none = 0, sealed, cells, answers, guarded
    }

    static func encode(ciphertext: [UInt8], slots: [LockSetName: KeySlot], version: Int) -> [UInt8] {
        // The exact size, so that the buffer holds no spare capacity.
        var size = 8 + ciphertext.count + LockSetName.allCases.count
        for slot in slots.values {
            switch slot {
            case let .guarded(key): size += 2 + key.count
            case let .sealed(salt, _, _), let .cells(salt, _, _), let .answers(salt, _, _):
                size += 2 + salt.count + 24 + 2 + slot.wrappedKeys.reduce(0) { $0 + 2 + $1.count }
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size)
        append(UInt32(truncatingIfNeeded: version), 4, to: &bytes)
        append(UInt32(ciphertext.count), 4, to: &bytes)
        bytes += ciphertext
        for name in LockSetName.allCases {
            switch slots[name] {
            case nil: bytes.append(Kind.none.rawValue)
            case let .sealed(salt, cost, wrapped)?:
                bytes.append(Kind.sealed.rawValue)
                append(salt: salt, cost: cost, keys: [wrapped], to: &bytes)
            case let .cells(salt, cost, wrapped)?:
                bytes.append(Kind.cells.rawValue)
                append(salt: salt, cost: cost, keys: wrapped, to: &bytes)
            case let .answers(salt, cost, wrapped)?:
                bytes.append(Kind.answers.rawValue)
                append(salt: salt, cost: cost, keys: wrapped, to: &bytes)
            case let .guarded(key)?:
                bytes.append(Kind.guarded.rawValue)
                append(key, to: &bytes)
            }
        }
        return bytes
    }

    static func ciphertext(_ bytes: [UInt8]) -> [UInt8] { Array(bytes[8..<8 + Int(number(bytes, at: 4, 4))]) }

    static func slots(_ bytes: [UInt8]) -> [LockSetName: KeySlot] {
        var offset = 8 + Int(number(bytes, at: 4, 4))
        var slots: [LockSetName: KeySlot] = [:]
        for name in LockSetName.allCases {
            let kind = Kind(rawValue: bytes[offset])!
            offset += 1
            switch kind {
            case .none: continue
            case .guarded: slots[name] = .guarded(key: field(bytes, &offset))
            case .sealed, .cells, .answers:
                let salt = field(bytes, &offset)
                var cost: [Int] = []
                for _ in 0..<3 {
                    cost.append(Int(Int64(bitPattern: number(bytes, at: offset, 8))))
                    offset += 8
                }
                let count = Int(number(bytes, at: offset, 2))
                offset += 2
                let keys = (0..<count).map { _ in field(bytes, &offset) }
                let sealCost = SealCost(passes: cost[0], memory: cost[1], lanes: cost[2])
                slots[name] =
                    switch kind {
                    case .sealed: .sealed(salt: salt, cost: sealCost, wrapped: keys[0])
                    case .cells: .cells(salt: salt, cost: sealCost, wrapped: keys)
                    default: .answers(salt: salt, cost: sealCost, wrapped: keys)
                    }
            }
        }
        return slots
    }

    private static func append(salt: [UInt8], cost: SealCost, keys: [[UInt8]], to bytes: inout [UInt8]) {
        append(salt, to: &bytes)
        for value in [cost.passes, cost.memory, cost.lanes] {
            append(UInt64(bitPattern: Int64(value)), 8, to: &bytes)
        }
        append(UInt64(keys.count), 2, to: &bytes)
        for key in keys { append(key, to: &bytes) }
    }

    private static func append(_ field: [UInt8], to bytes: inout [UInt8]) {
        precondition(field.count <= Int(UInt16.max), "a salt or key of a sealed page is far longer than any format's")
        append(UInt64(field.count), 2, to: &bytes)
        bytes += field
    }

    private static func append(_ value: some FixedWidthInteger, _ width: Int, to bytes: inout [UInt8]) {
        let value = UInt64(truncatingIfNeeded: value)
        for index in 0..<width { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
    }

    private static func field(_ bytes: [UInt8], _ offset: inout Int) -> [UInt8] {
        let count = Int(number(bytes, at: offset, 2))
        defer { offset += 2 + count }
        return Array(bytes[offset + 2..<offset + 2 + count])
    }

    private static func number(_ bytes: [UInt8], at offset: Int, _ width: Int) -> UInt64 {
        (0..<width).reduce(0) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) }
    }
}
