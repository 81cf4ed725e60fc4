import ChestCore
import FoundationEssentials

/// What one browser's `/events` connection is sent, as Server-Sent Events: first every part of the page (so a
/// browser that reconnects starts from the current state), then only the parts that changed since, and each
/// board event as `chest board --json` writes it. Pure: the server's threads hold one per connection.
struct EventStream {
    /// A board event numbered in the order the board heard it.
    struct Numbered: Sendable {
        var number: Int
        var event: BoardEvent
    }

    private var sent: [String: String] = [:]
    private var lastEvent: Int
    private var started = false

    /// A stream that sends the events numbered after `lastEvent` (those before it are in the first state).
    init(after lastEvent: Int) {
        self.lastEvent = lastEvent
    }

    /// The bytes that bring this browser up to `sections` and `events`; empty when nothing changed for it.
    ///
    /// Written once into a buffer of the exact size, counted first: at 5,000 teams the sections are megabytes, and
    /// building them as a JSON string, then an event, then bytes held four or five copies at once on a server thread
    /// (docs/BENCHMARKS.md "A city").
    mutating func next(sections: [String: String], events: [Numbered]) -> Data {
        let prefix = started ? "" : "retry: 2000\n\n"
        started = true
        let changed = sections.filter { sent[$0.key] != $0.value }.sorted { $0.key < $1.key }
        for (key, value) in changed { sent[key] = value }
        let fresh = events.filter { $0.number > lastEvent }
        if let last = fresh.last { lastEvent = last.number }
        let lines = fresh.map(\.event.line)
        var count = prefix.utf8.count
        if !changed.isEmpty {
            count += Self.sectionsHead.utf8.count + 2 + Self.tail.utf8.count + changed.count * 2 - 1
            for (key, value) in changed { count += Self.escapedCount(key) + Self.escapedCount(value) }
        }
        for line in lines { count += Self.boardHead.utf8.count + line.utf8.count + Self.tail.utf8.count }
        guard count > 0 else { return Data() }
        var data = Data(count: count)
        data.withUnsafeMutableBytes { raw in
            var out = Writer(bytes: raw)
            out.append(prefix)
            if !changed.isEmpty {
                out.append(Self.sectionsHead)
                out.append(UInt8(ascii: "{"))
                for (index, (key, value)) in changed.enumerated() {
                    if index > 0 { out.append(UInt8(ascii: ",")) }
                    out.appendString(key)
                    out.append(UInt8(ascii: ":"))
                    out.appendString(value)
                }
                out.append(UInt8(ascii: "}"))
                out.append(Self.tail)
            }
            for line in lines {
                out.append(Self.boardHead)
                out.append(line)
                out.append(Self.tail)
            }
            precondition(out.at == raw.count, "the event stream's bytes were miscounted")
        }
        return data
    }

    private static let sectionsHead = "event: sections\ndata: "
    private static let boardHead = "event: board\ndata: "
    private static let tail = "\n\n"

    /// The length of `text` as a JSON string, quotes included (`Writer.appendString`).
    static func escapedCount(_ text: String) -> Int {
        var count = 2
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x0A, 0x0D, 0x09: count += 2
            case 0..<0x20: count += 6
            default: count += 1
            }
        }
        return count
    }

    /// Writes into a buffer already counted to fit.
    private struct Writer {
        let bytes: UnsafeMutableRawBufferPointer
        var at = 0

        mutating func append(_ byte: UInt8) {
            bytes[at] = byte
            at += 1
        }

        mutating func append(_ text: String) {
            for byte in text.utf8 { append(byte) }
        }

        /// A JSON string: quotes, backslashes and control characters escaped, nothing else (no slash, as
        /// `.withoutEscapingSlashes`).
        mutating func appendString(_ text: String) {
            let hex: StaticString = "0123456789abcdef"
            append(UInt8(ascii: "\""))
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    append(UInt8(ascii: "\\"))
                    append(byte)
                case 0x0A, 0x0D, 0x09:
                    append(UInt8(ascii: "\\"))
                    append(byte == 0x0A ? UInt8(ascii: "n") : byte == 0x0D ? UInt8(ascii: "r") : UInt8(ascii: "t"))
                case 0..<0x20:
                    for ascii in "\\u00".utf8 { append(ascii) }
                    hex.withUTF8Buffer { digits in
                        append(digits[Int(byte >> 4)])
                        append(digits[Int(byte & 15)])
                    }
                default:
                    append(byte)
                }
            }
            append(UInt8(ascii: "\""))
        }
    }

    /// A comment, which browsers ignore: keeps proxies and idle timers from closing a quiet stream.
    static let keepAlive = Data(": keep-alive\n\n".utf8)
}
