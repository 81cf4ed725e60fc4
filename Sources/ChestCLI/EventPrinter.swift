import ChestCore
import FoundationEssentials

/// How `chest watch` shows events to a person: one clock, short IDs, the page text under each unlock, colour on
/// a terminal.
struct EventPrinter {
    let timeZone: Zone
    let colour: Bool
    var shortIDs = ShortIDs()

    /// The lines for one event: the time it happened (the unlock's own time, else when it arrived), its name,
    /// and what a person wants to know of it.
    mutating func text(_ event: ChestEvent, receivedAt: Date) -> String {
        let time = LockReason.clock(event.unlockedAt ?? receivedAt, timeZone)
        // Titles, reasons, file names and page texts are untrusted: control characters are shown escaped.
        let (described, paint, text) = describe(event)
        let summary = TerminalText.escaped(described)
        let body = TerminalText.escaped(text, keepingNewlines: true)
        let label = Output.pad(event.name, 9)
        var lines = ["\(time)  \(colour ? "\u{1B}[\(paint)m\(label)\u{1B}[0m" : label)  \(summary)"]
        if !body.isEmpty {
            lines += body.split(separator: "\n", omittingEmptySubsequences: false).map { "          " + $0 }
        }
        return lines.joined(separator: "\n")
    }

    private mutating func describe(_ event: ChestEvent) -> (String, String, String) {
        switch event {
        case let .unlocked(unlock):
            shortIDs.insert([unlock.id])
            var set = unlock.set.map { " by set \($0.rawValue)" } ?? ""
            if let reached = unlock.reachedAt {
                set += ", place reached " + Wording.reached(reached, before: unlock.at, in: timeZone)
            }
            let text = ([unlock.text] + Output.attachmentLines(unlock.attachments)).joined(separator: "\n")
            return (
                "\"\(unlock.title)\" page \(unlock.page) is open\(set)  (\(shortIDs.short(unlock.id)))", "1;32", text
            )
        case let .hint(note):
            shortIDs.insert([note.id])
            let cost = note.cost.map { $0 > 0 ? ", \($0) point\($0 == 1 ? "" : "s")" : "" } ?? ""
            return (
                "\"\(note.title)\" page \(note.page): hint \(note.hint)\(cost)  (\(shortIDs.short(note.id)))", "1;36",
                note.text
            )
        case let .ingested(id, title):
            shortIDs.insert([id])
            return ("\"\(title)\" is in the chest  (\(shortIDs.short(id)))", "36", "")
        case let .rejected(file, reason):
            return ("\(file): \(reason)", "31", "")
        case let .gpsd(connected, server, reason):
            return connected
                ? ("connected to \(server)", "32", "")
                : ("gpsd at \(server) is gone\(reason.map { ": " + $0 } ?? ""); chestd keeps trying", "1;33", "")
        case let .fixFound(fix):
            return (Self.describe(fix), "32", "")
        case let .fixLost(_, reason):
            return (reason, "1;33", "")
        case let .clock(reason):
            return (reason, "33", "")
        case let .weather(weather):
            let temperature = weather.temperatureC.map { String(printf: ", %.1f °C", $0) } ?? ""
            return ("\(weather.condition?.rawValue ?? "unknown conditions")\(temperature)", "36", "")
        case let .fix(fix):
            return (Self.describe(fix), "2", "")
        case let .saved(id, title):
            return ("\"\(title)\" moved to the saved chest  (\(shortIDs.short(id)))", "36", "")
        case let .unsaved(id, title):
            return ("\"\(title)\" moved back to the regular chest  (\(shortIDs.short(id)))", "36", "")
        case let .deleted(id, title):
            return ("\"\(title)\" deleted; `chest undelete` brings it back  (\(shortIDs.short(id)))", "36", "")
        case let .undeleted(id, title):
            shortIDs.insert([id])
            return ("\"\(title)\" is back in the chest  (\(shortIDs.short(id)))", "36", "")
        case let .trust(trust, source):
            return (
                trust.description + (source.map { "  (\($0.description))" } ?? ""),
                trust.level == .hardware ? "32" : "33", ""
            )
        case let .said(said, _, huntName):
            // The first line is what `chest nav` shows of an event: the word itself.
            let lines = said.text.split(separator: "\n", omittingEmptySubsequences: false)
            let alone = said.team.map { " (to team \(TerminalText.escaped($0)) alone)" } ?? ""
            return ("\(huntName)\(alone): \(lines.first ?? "")", "1;35", lines.dropFirst().joined(separator: "\n"))
        }
    }
}

extension EventPrinter {
    /// "3D fix  47.376900 N  8.541700 E  410.0 m"
    static func describe(_ fix: FixSummary) -> String {
        var text = fix.mode.description
        if let latitude = fix.latitude, let longitude = fix.longitude {
            text += "  " + Output.position(latitude, longitude)
        }
        if let altitude = fix.altitudeMSL { text += String(printf: "  %.1f m", altitude) }
        return text
    }
}

extension ChestEvent {
    /// When a page opened: an unlock delivered late keeps its own time.
    var unlockedAt: Date? { if case let .unlocked(unlock) = self { unlock.at } else { nil } }
}

/// The shortest prefix, at least 8 characters, that tells each known message ID from every other.
struct ShortIDs {
    private(set) var known: Set<MessageID> = []

    mutating func insert(_ ids: [MessageID]) { known.formUnion(ids) }

    func short(_ id: MessageID) -> String {
        let text = id.rawValue
        var length = 8
        while length < text.count,
            known.contains(where: { $0 != id && $0.rawValue.hasPrefix(text.prefix(length)) })
        {
            length += 1
        }
        return String(text.prefix(length))
    }
}
