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
    mutating func next(sections: [String: String], events: [Numbered]) -> Data {
        var text = started ? "" : "retry: 2000\n\n"
        started = true
        let changed = sections.filter { sent[$0.key] != $0.value }
        if !changed.isEmpty {
            text += Self.event("sections", Self.object(changed))
            sent.merge(changed) { $1 }
        }
        for numbered in events where numbered.number > lastEvent {
            text += Self.event("board", numbered.event.line)
            lastEvent = numbered.number
        }
        return Data(text.utf8)
    }

    /// `strings` as one line of JSON, keys sorted, as `ChestJSON.line` writes it; by hand, since the leaderboard of a
    /// city is megabytes of HTML that JSONEncoder took a tenth of the board's time to escape (docs/BENCHMARKS.md "A city").
    static func object(_ strings: [String: String]) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        bytes.reserveCapacity(strings.values.reduce(16) { $0 + $1.utf8.count + 32 })
        for (index, key) in strings.keys.sorted().enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            appendString(key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            appendString(strings[key]!, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A JSON string: quotes, backslashes and control characters escaped, nothing else (no slash, as
    /// `.withoutEscapingSlashes`).
    static func appendString(_ text: String, to bytes: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(byte)
            case 0x0A, 0x0D, 0x09:
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(byte == 0x0A ? UInt8(ascii: "n") : byte == 0x0D ? UInt8(ascii: "r") : UInt8(ascii: "t"))
            case 0..<0x20:
                bytes.append(contentsOf: [
                    UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)],
                    hex[Int(byte & 15)],
                ])
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A comment, which browsers ignore: keeps proxies and idle timers from closing a quiet stream.
    static let keepAlive = Data(": keep-alive\n\n".utf8)

    /// One event; `data` is one line (JSON escapes every newline).
    static func event(_ name: String, _ data: String) -> String { "event: \(name)\ndata: \(data)\n\n" }
}
