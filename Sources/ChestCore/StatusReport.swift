import Foundation

/// `chest status --json` (SPEC §2). Unknown numbers are encoded as null, never omitted, never NaN.
public struct StatusReport: Hashable, Sendable, Codable {
    public struct GPSD: Hashable, Sendable, Codable {
        public var connected: Bool
        public var server: String
        public var reason: String?
    }

    public struct FixReport: Hashable, Sendable, Codable {
        public var mode: Int
        public var latitude: Double?
        public var longitude: Double?
        public var altitudeMSL: Double?
        public var eph: Double?
        public var epv: Double?
        public var satellitesUsed: Int?
        public var time: Date?
        public var ageSeconds: Double?

        enum CodingKeys: CodingKey { case mode, latitude, longitude, altitudeMSL, eph, epv, satellitesUsed, time, ageSeconds }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(mode, forKey: .mode)
            try container.encode(latitude, forKey: .latitude)
            try container.encode(longitude, forKey: .longitude)
            try container.encode(altitudeMSL, forKey: .altitudeMSL)
            try container.encode(eph, forKey: .eph)
            try container.encode(epv, forKey: .epv)
            try container.encode(satellitesUsed, forKey: .satellitesUsed)
            try container.encode(time, forKey: .time)
            try container.encode(ageSeconds, forKey: .ageSeconds)
        }
    }

    public struct Clock: Hashable, Sendable, Codable {
        public var system: Date
        public var gpsOffsetSeconds: Double?
        /// True when time locks follow GPS time because the system clock is ahead of it.
        public var usingGPSTime: Bool
        public var rolloverSuspected: Bool

        enum CodingKeys: CodingKey { case system, gpsOffsetSeconds, usingGPSTime, rolloverSuspected }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(system, forKey: .system)
            try container.encode(gpsOffsetSeconds, forKey: .gpsOffsetSeconds)
            try container.encode(usingGPSTime, forKey: .usingGPSTime)
            try container.encode(rolloverSuspected, forKey: .rolloverSuspected)
        }
    }

    public struct WeatherReport: Hashable, Sendable, Codable {
        public var condition: String?
        public var temperatureC: Double?
        public var observedAt: Date
        public var ageSeconds: Double
        public var provider: String
        public var latitude: Double
        public var longitude: Double

        enum CodingKeys: CodingKey { case condition, temperatureC, observedAt, ageSeconds, provider, latitude, longitude }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(condition, forKey: .condition)
            try container.encode(temperatureC, forKey: .temperatureC)
            try container.encode(observedAt, forKey: .observedAt)
            try container.encode(ageSeconds, forKey: .ageSeconds)
            try container.encode(provider, forKey: .provider)
            try container.encode(latitude, forKey: .latitude)
            try container.encode(longitude, forKey: .longitude)
        }
    }

    public struct Counts: Hashable, Sendable, Codable {
        public var locked: Int
        public var partial: Int
        public var open: Int
        public var saved: Int
    }

    public var gpsd: GPSD
    public var fix: FixReport?
    public var clock: Clock
    public var weather: WeatherReport?
    public var messages: Counts
    /// Anything else worth saying (the weather provider's last error, a missing identity…).
    public var notes: [String]

    enum CodingKeys: CodingKey { case gpsd, fix, clock, weather, messages, notes }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(gpsd, forKey: .gpsd)
        try container.encode(fix, forKey: .fix)
        try container.encode(clock, forKey: .clock)
        try container.encode(weather, forKey: .weather)
        try container.encode(messages, forKey: .messages)
        try container.encode(notes, forKey: .notes)
    }
}

extension Engine {
    public func status(now: Now, notes: [String] = []) -> StatusReport {
        let fix = lastFix.map { fix in
            StatusReport.FixReport(mode: fix.mode, latitude: fix.position?.latitude, longitude: fix.position?.longitude,
                                   altitudeMSL: fix.altitude3D ?? (fix.mode >= 2 ? fix.altitudeMSL : nil),
                                   eph: fix.eph, epv: fix.epv, satellitesUsed: fix.satellitesUsed, time: fix.time,
                                   ageSeconds: fix.age(at: now.monotonic))
        }
        let weather = self.weather.map {
            StatusReport.WeatherReport(condition: $0.condition?.rawValue, temperatureC: $0.temperatureC,
                                       observedAt: $0.observedAt, ageSeconds: now.wall.timeIntervalSince($0.observedAt),
                                       provider: $0.provider, latitude: $0.coordinate.latitude,
                                       longitude: $0.coordinate.longitude)
        }
        let regular = entries.values.filter { $0.chest == .regular }
        let counts = StatusReport.Counts(
            locked: regular.count { $0.stateName == "locked" }, partial: regular.count { $0.stateName == "partial" },
            open: regular.count { $0.stateName == "open" }, saved: entries.values.count { $0.chest == .saved })
        return StatusReport(
            gpsd: .init(connected: gps.connected, server: gps.server, reason: gps.reason), fix: fix,
            clock: .init(system: now.wall, gpsOffsetSeconds: clock.offset, usingGPSTime: clock.correction(now) > 0,
                         rolloverSuspected: clock.rolloverSuspected),
            weather: weather, messages: counts, notes: notes)
    }
}
