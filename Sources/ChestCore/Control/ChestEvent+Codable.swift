import struct FoundationEssentials.Data
import struct FoundationEssentials.Date

/// The JSON line of an event: one flat object named by its `event` field, fields absent when unknown. Its names
/// are a contract other programs parse (`chest watch --json`, docs/DESIGN.md "Commands and output").
extension ChestEvent: Codable {
    package init(from decoder: any Decoder) throws {
        let line = try Line(from: decoder)
        func need<T>(_ value: T?, _ field: String) throws -> T {
            try ChestJSON.required(value, field, event: line.event, in: decoder)
        }
        switch line.event {
        case "unlocked":
            self = .unlocked(
                Unlock(
                    id: try need(line.id, "id"), title: line.title ?? "", page: try need(line.page, "page"),
                    set: line.set.flatMap(LockSetName.init(rawValue:)), at: try need(line.at, "at"),
                    text: line.text ?? "", attachments: line.attachments ?? []))
            if case var .unlocked(unlock) = self {
                unlock.reachedAt = line.reachedAt
                self = .unlocked(unlock)
            }
        case "ingested": self = .ingested(try need(line.id, "id"), title: line.title ?? "")
        case "rejected": self = .rejected(file: line.file ?? "", reason: line.reason ?? "")
        case "gpsd": self = .gpsd(connected: line.connected ?? false, server: line.server ?? "", reason: line.reason)
        case "fix":
            self = .fix(
                FixSummary(
                    mode: FixMode(gpsd: line.mode ?? 0), latitude: line.latitude, longitude: line.longitude,
                    altitudeMSL: line.altitudeMSL, time: line.at))
        case "fixFound":
            self = .fixFound(
                FixSummary(
                    mode: FixMode(gpsd: line.mode ?? 0), latitude: line.latitude,
                    longitude: line.longitude, altitudeMSL: line.altitudeMSL, time: line.at))
        case "fixLost":
            self = .fixLost(
                try need(line.cause.flatMap(FixState.Cause.init(rawValue:)), "cause"), reason: line.reason ?? "")
        case "saved": self = .saved(try need(line.id, "id"), title: line.title ?? "")
        case "deleted": self = .deleted(try need(line.id, "id"), title: line.title ?? "")
        case "unsaved": self = .unsaved(try need(line.id, "id"), title: line.title ?? "")
        case "undeleted": self = .undeleted(try need(line.id, "id"), title: line.title ?? "")
        case "clock": self = .clock(reason: line.reason ?? "")
        case "weather":
            self = .weather(
                WeatherSummary(
                    condition: line.condition.flatMap(WeatherCondition.init(rawValue:)),
                    temperatureC: line.temperatureC,
                    observedAt: try need(line.at, "at"), latitude: try need(line.latitude, "latitude"),
                    longitude: try need(line.longitude, "longitude")))
        case "hint":
            self = .hint(
                HintNote(
                    id: try need(line.id, "id"), title: line.title ?? "", page: try need(line.page, "page"),
                    hint: try need(line.hint, "hint"), text: line.text ?? "", cost: line.cost,
                    at: try need(line.at, "at")))
        case "trust":
            let level = try need(line.level.flatMap(FixTrust.Level.init(rawValue:)), "level")
            self = .trust(FixTrust(level: level, reasons: line.reasons ?? []), source: line.source)
        case "said":
            self = .said(
                HuntWord.Said(
                    id: line.saidID ?? 0, text: try need(line.text, "text"), at: try need(line.at, "at"),
                    team: line.toTeam),
                hunt: line.hunt ?? "", huntName: line.huntName ?? "")
        default:
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "unknown event \(line.event)"))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        try Line(self).encode(to: encoder)
    }

    /// The event's top-level fields that are text, numbers or booleans, by JSON name, as a shell sees them: the
    /// `CHEST_*` variables of a hook.
    package var scalarFields: [String: String] {
        let line = Line(self)
        var fields: [String: String] = ["event": line.event]
        func put(_ name: String, _ value: (some CustomStringConvertible)?) {
            if let value { fields[name] = value.description }
        }
        put("id", line.id)
        put("title", line.title)
        put("page", line.page)
        put("set", line.set)
        put("at", line.at.map(ISO8601.string))
        put("reachedAt", line.reachedAt.map(ISO8601.string))
        put("file", line.file)
        put("reason", line.reason)
        put("connected", line.connected)
        put("server", line.server)
        put("mode", line.mode)
        put("latitude", line.latitude)
        put("longitude", line.longitude)
        put("altitudeMSL", line.altitudeMSL)
        put("condition", line.condition)
        put("temperatureC", line.temperatureC)
        put("text", line.text)
        put("level", line.level)
        put("cause", line.cause)
        put("hint", line.hint)
        put("cost", line.cost)
        put("hunt", line.hunt)
        put("huntName", line.huntName)
        return fields
    }

    /// The line chestd writes to watchers: every event carries `at`, its own time when it has one (an unlock's,
    /// a fix's GPS time, a reading's observation), else `emittedAt`, when chestd told it.
    package func line(emittedAt: Date) -> Data {
        var line = Line(self)
        if line.at == nil { line.at = emittedAt }
        return ChestJSON.line(line)
    }

    /// The flat object as it is written.
    private struct Line: Codable {
        var event: String
        var id: MessageID?
        var title: String?
        var page: Int?
        var set: String?
        var at: Date?
        /// `unlocked`: when the page's place was reached, absent when no location lock opened it.
        var reachedAt: Date?
        var file: String?
        var reason: String?
        var connected: Bool?
        var server: String?
        var mode: Int?
        var latitude: Double?
        var longitude: Double?
        var altitudeMSL: Double?
        var condition: String?
        var temperatureC: Double?
        var text: String?
        var level: String?
        var reasons: [String]?
        var source: FixSource?
        /// `unlocked`: the page's files, absent when it has none.
        var attachments: [Attachment]?
        var cause: String?
        /// `hint`: the hint's number on its page (from 1), and what the hunt's board charges for it.
        var hint: Int?
        var cost: Int?
        /// `said`: the hunt's ID and name, and the word's id (the organiser's clock in milliseconds).
        var hunt: String?
        var huntName: String?
        var saidID: UInt64?
        /// `said`: the team it was told to alone (`chest hunt say --team`); absent for a word to every team.
        var toTeam: String?

        init(_ event: ChestEvent) {
            self.event = event.name
            switch event {
            case let .unlocked(unlock):
                (id, title, page, set, at, text) = (
                    unlock.id, unlock.title, unlock.page, unlock.set?.rawValue, unlock.at, unlock.text
                )
                attachments = unlock.attachments.isEmpty ? nil : unlock.attachments
                reachedAt = unlock.reachedAt
            case let .ingested(id, title), let .saved(id, title), let .deleted(id, title), let .unsaved(id, title),
                let .undeleted(id, title):
                (self.id, self.title) = (id, title)
            case let .rejected(file, reason):
                (self.file, self.reason) = (file, reason)
            case let .gpsd(connected, server, reason):
                (self.connected, self.server, self.reason) = (connected, server, reason)
            case let .fixLost(cause, reason):
                (self.cause, self.reason) = (cause.rawValue, reason)
            case let .fix(fix), let .fixFound(fix):
                (mode, latitude, longitude, altitudeMSL, at) = (
                    fix.mode.rawValue, fix.latitude, fix.longitude, fix.altitudeMSL, fix.time
                )
            case let .clock(reason):
                self.reason = reason
            case let .weather(weather):
                (condition, temperatureC, at) = (weather.condition?.rawValue, weather.temperatureC, weather.observedAt)
                (latitude, longitude) = (weather.latitude, weather.longitude)
            case let .trust(trust, source):
                (level, reasons, self.source) = (trust.level.rawValue, trust.reasons, source)
                reason = trust.reasons.isEmpty ? nil : trust.reasons.joined(separator: "; ")
            case let .hint(note):
                (id, title, page, hint, text, cost, at) = (
                    note.id, note.title, note.page, note.hint, note.text, note.cost, note.at
                )
            case let .said(said, hunt, huntName):
                (text, at, saidID, self.hunt, self.huntName) = (said.text, said.at, said.id, hunt, huntName)
                toTeam = said.team
            }
        }
    }
}
