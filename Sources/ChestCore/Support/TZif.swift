/// Reads the tz database's binary files, TZif versions 1 to 4 (RFC 8536), as Go's `LoadLocationFromTZData` does:
/// from version 2 on, the 64-bit data after the 32-bit block, and the footer's POSIX rule for later instants.
/// Leap-second records are skipped: chest counts time as POSIX does, without them.
package enum TZif {
    /// Why bytes are not a zone.
    package struct FormatError: Error, Hashable, Sendable, CustomStringConvertible {
        package var description: String
    }

    /// The zone `bytes` describe.
    package static func rules(_ bytes: [UInt8]) throws(FormatError) -> ZoneRules {
        var reader = ByteReader(bytes: bytes)
        let first = try reader.header()
        guard first.version >= 2 else { return try reader.data(first, timeSize: 4) }
        // Version 2 and later repeat the data with 64-bit times after the version 1 block: skip that block.
        try reader.skip(first.length(timeSize: 4))
        let second = try reader.header()
        var rules = try reader.data(second, timeSize: 8)
        rules.footer = try reader.footer()
        return rules
    }
}

/// The counts a TZif header gives.
private struct TZifHeader {
    var version: Int
    var utLocal: Int, standardWall: Int, leaps: Int, transitions: Int, types: Int, characters: Int

    func length(timeSize: Int) -> Int {
        transitions * (timeSize + 1) + types * 6 + characters + leaps * (timeSize + 4) + standardWall + utLocal
    }
}

private struct ByteReader {
    let bytes: [UInt8]
    var index = 0

    mutating func header() throws(TZif.FormatError) -> TZifHeader {
        let magic = try take(4)
        guard magic.elementsEqual("TZif".utf8) else { throw TZif.FormatError(description: "not a TZif file") }
        let version = try take(1)[0]
        try skip(15)
        var counts = [Int]()
        for _ in 0..<6 { counts.append(Int(try integer(size: 4))) }
        guard counts.allSatisfy({ $0 >= 0 }), counts[4] >= 1 else {
            throw TZif.FormatError(description: "TZif counts out of range")
        }
        let header = TZifHeader(
            version: version == 0 ? 1 : Int(version) - Int(UInt8(ascii: "0")), utLocal: counts[0],
            standardWall: counts[1], leaps: counts[2], transitions: counts[3], types: counts[4], characters: counts[5])
        guard (1...9).contains(header.version) else { throw TZif.FormatError(description: "unknown TZif version") }
        return header
    }

    mutating func data(_ header: TZifHeader, timeSize: Int) throws(TZif.FormatError) -> ZoneRules {
        var transitions = [Int64]()
        for _ in 0..<header.transitions { transitions.append(try integer(size: timeSize)) }
        var indices = [Int]()
        for _ in 0..<header.transitions { indices.append(Int(try take(1)[0])) }
        var types = [(offset: Int, daylight: Bool, name: Int)]()
        for _ in 0..<header.types {
            let offset = Int(try integer(size: 4))
            let flags = try take(2)
            types.append((offset, flags[0] != 0, Int(flags[1])))
        }
        let characters = try take(header.characters)
        try skip(header.leaps * (timeSize + 4) + header.standardWall + header.utLocal)
        guard indices.allSatisfy({ $0 < header.types }), zip(transitions, transitions.dropFirst()).allSatisfy(<),
            types.allSatisfy({ $0.name < max(characters.count, 1) && abs($0.offset) < 26 * 3600 })
        else { throw TZif.FormatError(description: "TZif data out of range") }
        let offsets = types.map { type in
            let name = characters[min(type.name, characters.count)...].prefix { $0 != 0 }
            return ZoneOffset(
                offset: type.offset, isDaylight: type.daylight, abbreviation: String(decoding: name, as: UTF8.self))
        }
        return ZoneRules(transitions: transitions, indices: indices, offsets: offsets, footer: nil)
    }

    /// "\nrule\n"; an empty rule means none.
    mutating func footer() throws(TZif.FormatError) -> PosixZoneRule? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\n"),
            let end = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: "\n"))
        else { throw TZif.FormatError(description: "TZif footer missing") }
        let text = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
        index = end + 1
        guard !text.isEmpty else { return nil }
        guard let rule = PosixZoneRule(text) else { throw TZif.FormatError(description: "TZif footer not a rule") }
        return rule
    }

    mutating func take(_ count: Int) throws(TZif.FormatError) -> [UInt8] {
        guard count >= 0, bytes.count - index >= count else {
            throw TZif.FormatError(description: "TZif file cut short")
        }
        defer { index += count }
        return Array(bytes[index..<(index + count)])
    }

    mutating func skip(_ count: Int) throws(TZif.FormatError) { _ = try take(count) }

    /// A big-endian two's-complement integer of `size` bytes.
    mutating func integer(size: Int) throws(TZif.FormatError) -> Int64 {
        var value: UInt64 = 0
        for byte in try take(size) { value = value << 8 | UInt64(byte) }
        let shift = UInt64(64 - size * 8)
        return Int64(bitPattern: value << shift) >> shift
    }
}
