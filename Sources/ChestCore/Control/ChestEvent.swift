import struct FoundationEssentials.Date

/// Something that happened: one line of `chest watch --json` and of the daemon's log, and what a hook hears of
/// an unlock. Only the engine makes them.
package enum ChestEvent: Hashable, Sendable {
    /// A page opened.
    case unlocked(Unlock)
    /// A message entered the chest.
    case ingested(MessageID, title: String)
    /// A file was refused; it is set aside with its reason.
    case rejected(file: String, reason: String)
    /// gpsd was reached, or lost.
    case gpsd(connected: Bool, server: String, reason: String?)
    /// A new fix epoch.
    case fix(FixSummary)
    /// chestd has a usable fix: the first since it started, or again after `fixLost`.
    case fixFound(FixSummary)
    /// chestd has no usable fix any more: why, and the sentence a person reads.
    case fixLost(FixState.Cause, reason: String)
    /// A message moved to the saved chest.
    case saved(MessageID, title: String)
    /// A message moved back from the saved chest to the regular one.
    case unsaved(MessageID, title: String)
    /// A message was taken out of the chest (kept aside a while for `undelete`).
    case deleted(MessageID, title: String)
    /// A deleted message came back, with its state.
    case undeleted(MessageID, title: String)
    /// The system clock and GPS time disagree enough to matter to time locks.
    case clock(reason: String)
    /// A weather reading arrived.
    case weather(WeatherSummary)
    /// The fixes' trust level or its reasons changed (docs/SECURITY.md "Hardware trust and time").
    case trust(FixTrust, source: FixSource?)
    /// A page's hint opened: by itself after its delay, on `chest hint`, or with the key the hunt's board gave.
    case hint(HintNote)

    /// The organiser of the hunt (ID `hunt`, named `huntName`) said something to every team (docs/HUNTS.md "Word
    /// to all teams"); its `at` is when they sent it.
    case said(HuntWord.Said, hunt: String, huntName: String)

    /// Every name the `event` field takes, in the order `chest watch --help` lists them.
    package static let names = [
        "unlocked", "ingested", "rejected", "gpsd", "fixLost", "fixFound", "clock", "weather", "fix",
        "saved", "unsaved", "deleted", "undeleted", "trust", "hint", "said",
    ]

    /// The name in the `event` field.
    package var name: String {
        switch self {
        case .unlocked: "unlocked"
        case .ingested: "ingested"
        case .rejected: "rejected"
        case .gpsd: "gpsd"
        case .fix: "fix"
        case .fixFound: "fixFound"
        case .fixLost: "fixLost"
        case .saved: "saved"
        case .unsaved: "unsaved"
        case .deleted: "deleted"
        case .undeleted: "undeleted"
        case .clock: "clock"
        case .weather: "weather"
        case .trust: "trust"
        case .hint: "hint"
        case .said: "said"
        }
    }

    /// When it happened, for events that carry a time.
    package var at: Date? {
        switch self {
        case let .unlocked(unlock): unlock.at
        case let .fix(fix), let .fixFound(fix): fix.time
        case let .weather(weather): weather.observedAt
        case let .hint(note): note.at
        case let .said(said, _, _): said.at
        default: nil
        }
    }

    /// The one-line form for the daemon's log.
    package var logLine: String {
        switch self {
        case let .unlocked(unlock):
            "unlocked \(unlock.id) \"\(unlock.title)\" page \(unlock.page)"
                + (unlock.set.map { " by set \($0.rawValue)" } ?? "")
        case let .ingested(id, title): "ingested \(id) \"\(title)\""
        case let .rejected(file, reason): "rejected \(file): \(reason)"
        case let .gpsd(connected, server, reason):
            connected
                ? "gpsd connected at \(server)" : "gpsd at \(server) not connected" + (reason.map { ": \($0)" } ?? "")
        case let .saved(id, title): "saved \(id) \"\(title)\""
        case let .unsaved(id, title): "unsaved \(id) \"\(title)\""
        case let .deleted(id, title): "deleted \(id) \"\(title)\""
        case let .undeleted(id, title): "undeleted \(id) \"\(title)\""
        case let .clock(reason): "clock: \(reason)"
        case let .trust(trust, source): "trust \(trust.description)" + (source.map { " (\($0.description))" } ?? "")
        case let .fixFound(fix): "fix found: \(fix.mode.description)"
        case let .fixLost(_, reason): "fix lost: \(reason)"
        case .fix, .weather: name
        case let .hint(note): "hint \(note.hint) of \(note.id) \"\(note.title)\" page \(note.page) opened"
        case let .said(said, _, huntName):
            "said by the organiser of \(huntName)\(said.team.map { " to team \($0) alone" } ?? ""): \(said.text)"
        }
    }
}

/// A page that opened, with its text: what `watch` and hooks are told.
package struct Unlock: Hashable, Sendable {
    package var id: MessageID
    package var title: String
    package var page: Int
    /// The set that opened it.
    package var set: LockSetName?
    package var at: Date
    /// When the page's place was reached (its third confirming fix); nil when no location lock opened it.
    package var reachedAt: Date?
    package var text: String
    /// The files the page carries (name, type, size); their bytes stay in the message file.
    package var attachments: [Attachment]

    package init(
        id: MessageID, title: String, page: Int, set: LockSetName?, at: Date, text: String,
        attachments: [Attachment] = []
    ) {
        self.id = id
        self.title = title
        self.page = page
        self.set = set
        self.at = at
        self.text = text
        self.attachments = attachments
    }

    /// The unlock of an open page of a message in the chest, named by its chest ID.
    package init(_ stored: StoredMessage, _ open: OpenPage) {
        self.init(stored.message, open)
        id = stored.id
    }

    /// The unlock of an open page; a sealed page's text is what its key opened.
    package init(_ message: Message, _ open: OpenPage) {
        self.init(
            id: message.id, title: message.title, page: open.page, set: open.set, at: open.at,
            text: open.content?.text ?? message.pages[open.page - 1].text, attachments: open.content?.attachments ?? [])
        reachedAt = open.reachedAt
    }
}

/// What a `fix` event says of a fix.
package struct FixSummary: Hashable, Sendable {
    package var mode: FixMode
    package var latitude: Double?
    package var longitude: Double?
    package var altitudeMSL: Double?
    /// The receiver's time for the fix.
    package var time: Date?

    package init(
        mode: FixMode, latitude: Double? = nil, longitude: Double? = nil, altitudeMSL: Double? = nil, time: Date? = nil
    ) {
        self.mode = mode
        self.latitude = latitude
        self.longitude = longitude
        self.altitudeMSL = altitudeMSL
        self.time = time
    }

    package init(_ fix: Fix) {
        self.init(
            mode: fix.mode, latitude: fix.position?.latitude, longitude: fix.position?.longitude,
            altitudeMSL: fix.altitude3D, time: fix.time)
    }
}

/// What a `weather` event says of a reading.
package struct WeatherSummary: Hashable, Sendable {
    package var condition: WeatherCondition?
    package var temperatureC: Double?
    package var observedAt: Date
    /// The position the reading speaks for.
    package var latitude: Double
    package var longitude: Double

    package init(
        condition: WeatherCondition?, temperatureC: Double?, observedAt: Date, latitude: Double, longitude: Double
    ) {
        self.condition = condition
        self.temperatureC = temperatureC
        self.observedAt = observedAt
        self.latitude = latitude
        self.longitude = longitude
    }

    package init(_ observation: WeatherObservation) {
        self.init(
            condition: observation.condition, temperatureC: observation.temperatureC,
            observedAt: observation.observedAt, latitude: observation.coordinate.latitude,
            longitude: observation.coordinate.longitude)
    }
}
