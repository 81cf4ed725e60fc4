import FoundationEssentials
import Glibc

/// One lock on the wire (docs/FORMAT.md): every field optional, so that a missing one gets its own precise error.
struct WireLock: Codable {
    var type: String?
    var latitude: Double?
    var longitude: Double?
    var radius: Double?
    var at: String?
    var argon2id: String?
    var condition: String?
    var min: Double?
    var max: Double?
    /// A time lock that needs hardware GPS time (docs/FORMAT.md).
    var gps: Bool?
    /// Format 2: a location in the clear says so; a sealed one carries only its grid.
    var visible: Bool?
    var cell: WireCellGrid?
    var message: String?
    var page: Int?
    /// Format 2: a release lock's name (docs/HUNTS.md "Releases").
    var name: String?
    /// The organiser's name for a location whose point is in the clear (docs/FORMAT.md "Place labels").
    var label: String?

    init(_ lock: Lock, version: Int) {
        type = lock.kind.rawValue
        switch lock {
        case let .location(center, radius):
            latitude = center.latitude
            longitude = center.longitude
            self.radius = radius
            if version >= 2 { visible = true }
        case let .sealedLocation(grid): cell = WireCellGrid(grid)
        case .sealedPIN, .answer: break
        case let .release(name): self.name = name
        case let .time(date): at = ISO8601.string(date)
        case let .gpsTime(date):
            at = ISO8601.string(date)
            gps = true
        case let .pin(hash): argon2id = hash
        case let .weather(condition): self.condition = condition.rawValue
        case let .temperature(bounds), let .altitude(bounds):
            min = bounds.min
            max = bounds.max
        case let .after(link):
            message = link.message.rawValue
            page = link.page
        }
    }

    func lock(page: Int, version: Int) throws(MessageFormatError) -> Lock {
        guard let type else { throw .missingField("pages[\(page)].type") }
        guard let kind = LockKind(rawValue: type) else { throw .unknownLockType(page: page, type) }
        if version >= 2, let sealed = try sealedLock(kind, page: page, version: version) { return sealed }
        if version == 1, visible != nil || cell != nil {
            throw .wrongVersionField(version: 1, field: "pages[\(page)].\(visible != nil ? "visible" : "cell")")
        }
        switch kind {
        case .location:
            guard let latitude, let longitude, let radius else { throw .missingField("pages[\(page)].location") }
            return try Lock.validatedLocation(latitude: latitude, longitude: longitude, radius: radius, page: page)
        case .time:
            guard let at else { throw .missingField("pages[\(page)].at") }
            guard let date = ISO8601.parse(at) else { throw .badTime(page: page, at) }
            return gps == true ? .gpsTime(date) : .time(date)
        case .pin:
            guard let argon2id else { throw .missingField("pages[\(page)].argon2id") }
            guard argon2id.utf8.count < 128 else {
                throw .invalidField("pages[\(page)].argon2id", "not an Argon2id hash")
            }
            do throws(Argon2Parameters.Refusal) {
                _ = try Argon2Parameters(validating: argon2id)
            } catch {
                throw .invalidField("pages[\(page)].argon2id", error.description)
            }
            if let problem = SealCost.encodedHashProblem(argon2id) { throw .sealedPart(page: page, problem) }
            return .pin(hash: argon2id)
        case .weather:
            guard let condition else { throw .missingField("pages[\(page)].condition") }
            guard let weather = WeatherCondition(rawValue: condition) else {
                throw .unknownWeather(page: page, condition)
            }
            return .weather(weather)
        case .temperature, .altitude:
            guard let min, let max else { throw .missingField("pages[\(page)].min/max") }
            return try Lock.validatedRange(kind, Bounds(min: min, max: max), page: page)
        case .after:
            guard let message, let linked = self.page else { throw .missingField("pages[\(page)].message/page") }
            guard let link = PageLink("\(message)#\(linked)") else {
                throw .invalidField(
                    "pages[\(page)].message/page", "not a message ID and a page from 1 to \(Message.maximumPages)")
            }
            return .after(link)
        case .release:
            throw .sealedPart(page: page, "a release lock exists only in format 2, where it is part of the page's key")
        case .answer:
            throw .sealedPart(
                page: page,
                "an answer lock exists only in the sealed formats, 2 and later, where it is part of the page's key")
        }
    }
}
