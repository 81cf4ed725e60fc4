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
            text += Self.event("sections", String(decoding: ChestJSON.line(changed), as: UTF8.self))
            sent.merge(changed) { $1 }
        }
        for numbered in events where numbered.number > lastEvent {
            text += Self.event("board", numbered.event.line)
            lastEvent = numbered.number
        }
        return Data(text.utf8)
    }

    /// A comment, which browsers ignore: keeps proxies and idle timers from closing a quiet stream.
    static let keepAlive = Data(": keep-alive\n\n".utf8)

    /// One event; `data` is one line (JSON escapes every newline).
    static func event(_ name: String, _ data: String) -> String { "event: \(name)\ndata: \(data)\n\n" }
}
