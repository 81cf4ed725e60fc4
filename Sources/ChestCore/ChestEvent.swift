import struct Foundation.Date

/// One line of `chest watch --json` and of the daemon's log: something that happened.
public struct ChestEvent: Hashable, Sendable, Codable {
    /// "unlocked", "ingested", "rejected", "gpsd", "fix", "weather", "saved", "deleted", "clock".
    public var event: String
    public var id: String?
    public var title: String?
    public var page: Int?
    public var set: String?
    public var at: Date?
    public var file: String?
    public var reason: String?
    public var connected: Bool?
    public var server: String?
    public var mode: Int?
    public var latitude: Double?
    public var longitude: Double?
    public var altitudeMSL: Double?
    public var condition: String?
    public var temperatureC: Double?
    public var text: String?

    public init(event: String) { self.event = event }

    public static func unlocked(_ message: Message, page: Int, set: LockSetName?, at: Date) -> ChestEvent {
        var event = ChestEvent(event: "unlocked")
        event.id = message.id.rawValue
        event.title = message.title
        event.page = page
        event.set = set?.rawValue
        event.at = at
        event.text = message.pages[page - 1].text
        return event
    }

    public static func ingested(_ message: Message) -> ChestEvent {
        var event = ChestEvent(event: "ingested")
        event.id = message.id.rawValue
        event.title = message.title
        return event
    }

    public static func rejected(file: String, reason: String) -> ChestEvent {
        var event = ChestEvent(event: "rejected")
        event.file = file
        event.reason = reason
        return event
    }

    public static func gpsd(connected: Bool, server: String, reason: String? = nil) -> ChestEvent {
        var event = ChestEvent(event: "gpsd")
        event.connected = connected
        event.server = server
        event.reason = reason
        return event
    }

    public static func fix(_ fix: Fix) -> ChestEvent {
        var event = ChestEvent(event: "fix")
        event.mode = fix.mode
        event.latitude = fix.position?.latitude
        event.longitude = fix.position?.longitude
        event.altitudeMSL = fix.altitude3D
        event.at = fix.time
        return event
    }

    public static func moved(_ id: MessageID, title: String, to chest: ChestKind?) -> ChestEvent {
        var event = ChestEvent(event: chest == nil ? "deleted" : "saved")
        event.id = id.rawValue
        event.title = title
        return event
    }

    /// The one-line form for the daemon's log.
    public var logLine: String {
        switch event {
        case "unlocked": "unlocked \(id ?? "?") \"\(title ?? "")\" page \(page ?? 0)" + (set.map { " by set \($0)" } ?? "")
        case "ingested": "ingested \(id ?? "?") \"\(title ?? "")\""
        case "rejected": "rejected \(file ?? "?"): \(reason ?? "")"
        case "gpsd": (connected ?? false) ? "gpsd connected at \(server ?? "?")"
            : "gpsd at \(server ?? "?") not connected" + (reason.map { ": \($0)" } ?? "")
        case "saved", "deleted": "\(event) \(id ?? "?") \"\(title ?? "")\""
        default: event + (reason.map { ": \($0)" } ?? "")
        }
    }
}
