import FoundationEssentials

/// `chest status --json` (docs/DESIGN.md "Commands and output"). Unknown numbers are encoded as null, never omitted, never NaN (`@Null`).
public struct StatusReport: Hashable, Sendable, Codable {
    public struct GPSD: Hashable, Sendable, Codable {
        public var connected: Bool
        public var server: String
        @Null public var reason: String?
    }

    public struct FixReport: Hashable, Sendable, Codable {
        public var mode: FixMode
        @Null public var latitude: Double?
        @Null public var longitude: Double?
        @Null public var altitudeMSL: Double?
        @Null public var eph: Double?
        @Null public var epv: Double?
        @Null public var satellitesUsed: Int?
        /// Satellites in view (used or not), from the latest SKY report.
        @Null public var satellitesSeen: Int?
        @Null public var time: Date?
        @Null public var ageSeconds: Double?
        /// The fixes' trust level and why (docs/SECURITY.md "Hardware trust and time").
        @Null public var trust: FixTrust?
        /// The receiver, as gpsd and the system describe it.
        @Null public var source: FixSource?

    }

    public struct Clock: Hashable, Sendable, Codable {
        public var system: Date
        @Null public var gpsOffsetSeconds: Double?
        /// True when time locks follow GPS time because the system clock is ahead of it.
        public var usingGPSTime: Bool
        public var rolloverSuspected: Bool
        /// "system" or "gps": the clock time locks follow now.
        public var decidedBy: String
        /// Why that clock decides.
        public var why: String

    }

    public struct WeatherReport: Hashable, Sendable, Codable {
        @Null public var condition: String?
        @Null public var temperatureC: Double?
        public var observedAt: Date
        public var ageSeconds: Double
        public var provider: String
        public var latitude: Double
        public var longitude: Double

    }

    public struct SealedLocks: Hashable, Sendable, Codable {
        public var pending: Int
        public var cellsTried: Int
        public var deriving: Int
        /// Cells waiting for their key, the one being derived included (docs/DESIGN.md "Late keys"); absent from
        /// chestd versions before the queue.
        public var cellsWaiting: Int?
        /// About how long until every waiting cell is tried, in seconds.
        public var secondsLeft: Double?

        /// "deriving the key of 3 cells, about 5 s", or nil when no cell waits.
        public var waitingSentence: String? {
            guard let cells = cellsWaiting, cells > 0 else { return nil }
            let seconds = Int((secondsLeft ?? 0).rounded(.up))
            return "deriving the key of \(cells) \(cells == 1 ? "cell" : "cells"), about \(seconds) s"
        }
    }

    public struct Counts: Hashable, Sendable, Codable {
        public var locked: Int
        public var partial: Int
        public var open: Int
        public var saved: Int
    }

    public var gpsd: GPSD
    @Null public var fix: FixReport?
    /// Whether that fix can be used now, and if not why (gpsd gone, receiver lost, silent, no fix); absent from
    /// chestd versions before it.
    public var fixState: FixState?
    public var clock: Clock
    @Null public var weather: WeatherReport?
    public var messages: Counts
    /// Format 2: sealed location locks still waiting for their cell, cells tried without success, derivations
    /// under way.
    public var sealed: SealedLocks?
    /// Anything else worth saying (the weather provider's last error, a missing identity…).
    public var notes: [String]
    /// The hunt this chestd joined (`chest hunt join`); absent when none.
    public var hunt: HuntLinkStatus?
}

extension Engine {
    public func status(now: Now, notes: [String] = []) -> StatusReport {
        let fix = lastFix.map { fix in
            StatusReport.FixReport(mode: fix.mode, latitude: fix.position?.latitude, longitude: fix.position?.longitude,
                                   altitudeMSL: fix.altitude3D ?? (fix.mode.hasPosition ? fix.altitudeMSL : nil),
                                   eph: fix.eph, epv: fix.epv, satellitesUsed: fix.satellitesUsed,
                                   satellitesSeen: fix.satellitesSeen, time: fix.time,
                                   ageSeconds: fix.age(at: now.monotonic), trust: trust.trust, source: trust.source)
        }
        let weather = self.weather.map {
            StatusReport.WeatherReport(condition: $0.condition?.rawValue, temperatureC: $0.temperatureC,
                                       observedAt: $0.observedAt, ageSeconds: now.wall.timeIntervalSince($0.observedAt),
                                       provider: $0.provider, latitude: $0.coordinate.latitude,
                                       longitude: $0.coordinate.longitude)
        }
        let regular = entries.values.filter { $0.chest == .regular }
        let counts = StatusReport.Counts(
            locked: regular.count { $0.openness == .locked }, partial: regular.count { $0.openness == .partial },
            open: regular.count { $0.openness == .open }, saved: entries.values.count { $0.chest == .saved })
        return StatusReport(
            gpsd: .init(connected: gps.connected, server: gps.server, reason: gps.reason), fix: fix,
            fixState: fixState(now: now),
            clock: .init(system: now.wall, gpsOffsetSeconds: clock.offset, usingGPSTime: clock.correction(now) > 0,
                         rolloverSuspected: clock.rolloverSuspected, decidedBy: clock.decision(now).clock,
                         why: clock.decision(now).why),
            weather: weather, messages: counts,
            sealed: StatusReport.SealedLocks(pending: sealSummary.pending, cellsTried: sealSummary.cellsTried,
                                             deriving: sealSummary.deriving, cellsWaiting: sealSummary.cellsWaiting,
                                             secondsLeft: sealSummary.secondsLeft), notes: notes, hunt: hunt)
    }
}
