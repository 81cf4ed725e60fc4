import ChestCore
import FoundationEssentials

/// A geocaching GPX read with libxml2's streaming reader (docs/QUEST.md "A course from a geocaching GPX"): GPX 1.0
/// and 1.1, the cache extension of any namespace and version, CDATA and entities; a file with no waypoint gives its
/// routes' named points, else its tracks'. Logs, travel bugs and attributes
/// are skipped unread, so a Pocket Query of 1,000 caches is read in one pass and only what a quest uses is kept.
package struct GeocacheFile: Sendable {
    /// A file that is not a GPX, with the line of the fault.
    package struct ReadError: Error, Hashable, Sendable, CustomStringConvertible {
        package var line: Int
        package var reason: String

        package init(line: Int, reason: String) {
            self.line = line
            self.reason = reason
        }

        package var description: String { "\(line): \(reason)" }
    }

    /// `<name>` of the file (GPX 1.0) or of its `<metadata>` (1.1).
    package var name: String?
    package var waypoints: [GeocacheWaypoint]
    /// What was read past: lines with bytes that are not UTF-8, read as Latin-1; entities whose text was left out.
    package var notes: [GeocacheCourse.Note]

    /// Reads a GPX document.
    package init(data: Data) throws(ReadError) {
        let (bytes, notes) = Self.repairedUTF8(data)
        let reader = GeocacheReader()
        try reader.read(bytes)
        name = reader.fileName
        waypoints = reader.waypoints
        self.notes = notes + reader.notes
        if waypoints.isEmpty, reader.unnamedPoints > 0 {
            self.notes.append(
                GeocacheCourse.Note(
                    line: 1,
                    "its \(reader.unnamedPoints) route or track point\(reader.unnamedPoints == 1 ? " has" : "s have") no <name>: "
                        + "a course is made of a route's named points"))
        }
    }

    /// The course this file makes.
    package func course(fileName: String, radius: Double = GeocacheCourse.defaultRadius) -> GeocacheCourse {
        var course = GeocacheCourse(waypoints: waypoints, fileName: fileName, name: name, radius: radius)
        course.readerNotes = notes
        return course
    }

    /// Whether `data` starts like XML whose root is `<gpx>`, as far as its first kilobytes tell: how `chest`
    /// tells a GPX of caches from a quest text file.
    package static func looksLikeGPX(_ data: Data) -> Bool {
        let prefix = data.prefix(4096)
        let head: String
        if let bigEndian = utf16ByteOrder(data) {
            let bytes = Array(prefix)
            var units: [UInt16] = []
            for index in stride(from: 0, to: bytes.count - 1, by: 2) {
                let (high, low) = bigEndian ? (bytes[index], bytes[index + 1]) : (bytes[index + 1], bytes[index])
                units.append(UInt16(high) << 8 | UInt16(low))
            }
            head = String(decoding: units, as: UTF16.self)
        } else {
            head = String(decoding: prefix, as: UTF8.self)
        }
        return head.contains(#/<([A-Za-z_][\w.-]*:)?gpx[\s>]/#)
    }

    /// Whether the document is UTF-16, big-endian (`true`) or little-endian (`false`), as XML tells it
    /// (its appendix F): by a byte order mark, or by the zero byte of its first `<` without one. `nil` for
    /// anything else.
    static func utf16ByteOrder(_ data: Data) -> Bool? {
        let start = Array(data.prefix(2))
        guard start.count == 2 else { return nil }
        switch (start[0], start[1]) {
        case (0xFE, 0xFF), (0x00, 0x3C): return true
        case (0xFF, 0xFE), (0x3C, 0x00): return false
        default: return nil
        }
    }

    /// The bytes, with every byte that is not part of valid UTF-8 read as Latin-1 when the file says it is UTF-8 (or
    /// says nothing): such files are common from older tools, and libxml2 would stop at the first such byte. A
    /// UTF-16 file is libxml2's to read as it is.
    static func repairedUTF8(_ data: Data) -> (Data, [GeocacheCourse.Note]) {
        if utf16ByteOrder(data) != nil { return (data, []) }
        let head = String(decoding: data.prefix(200), as: UTF8.self).lowercased()
        if let match = head.firstMatch(of: #/encoding\s*=\s*["'][^"']*["']/#),
            !match.output.contains("utf-8"), !match.output.contains("utf8")
        {
            return (data, [])
        }
        if String(validating: data, as: UTF8.self) != nil { return (data, []) }
        var output = Data()
        output.reserveCapacity(data.count + data.count / 16)
        var faultyLines: [Int] = []
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            var index = 0
            var line = 1
            while index < bytes.count {
                let byte = bytes[index]
                if byte == 0x0A { line += 1 }
                let length = Self.sequenceLength(bytes, at: index)
                if length > 0 {
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<index + length]))
                    index += length
                } else {
                    output.append(0xC0 | (byte >> 6))
                    output.append(0x80 | (byte & 0x3F))
                    if faultyLines.last != line { faultyLines.append(line) }
                    index += 1
                }
            }
        }
        let shown = 10
        var notes = faultyLines.prefix(shown).map {
            GeocacheCourse.Note(line: $0, "bytes that are not UTF-8 though the file says UTF-8; read as Latin-1")
        }
        if faultyLines.count > shown {
            notes.append(
                GeocacheCourse.Note(
                    line: faultyLines[shown],
                    "and \(faultyLines.count - shown) more lines with bytes that are not UTF-8"))
        }
        return (output, notes)
    }

    /// The length of the valid UTF-8 sequence at `index`, or 0.
    static func sequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let byte = bytes[index]
        let length: Int
        let minimum: UInt32
        switch byte {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: (length, minimum) = (2, 0x80)
        case 0xE0...0xEF: (length, minimum) = (3, 0x800)
        case 0xF0...0xF4: (length, minimum) = (4, 0x10000)
        default: return 0
        }
        guard index + length <= bytes.count else { return 0 }
        var value = UInt32(byte) & (0xFF >> (length + 1))
        for offset in 1..<length {
            let next = bytes[index + offset]
            guard next & 0xC0 == 0x80 else { return 0 }
            value = value << 6 | UInt32(next & 0x3F)
        }
        guard value >= minimum, value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value) else { return 0 }
        return length
    }
}
