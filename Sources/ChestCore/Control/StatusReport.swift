import FoundationEssentials

/// `chest status --json` (docs/DESIGN.md "Commands and output"). Unknown numbers are encoded as null, never omitted, never NaN (`@Null`).
package struct StatusReport: Hashable, Sendable, Codable {
    package struct GPSD: Hashable, Sendable, Codable {
        package var connected: Bool
        package var server: String
        @Null package var reason: String?
    }

    package struct FixReport: Hashable, Sendable, Codable {
        package var mode: FixMode
        @Null package var latitude: Double?
        @Null package var longitude: Double?
        @Null package var altitudeMSL: Double?
        @Null package var eph: Double?
        @Null package var epv: Double?
        @Null package var satellitesUsed: Int?
        /// Satellites in view (used or not), from the latest SKY report.
        @Null package var satellitesSeen: Int?
        @Null package var time: Date?
        @Null package var ageSeconds: Double?
        /// The fixes' trust level and why (docs/SECURITY.md "Hardware trust and time").
        @Null package var trust: FixTrust?
        /// The receiver, as gpsd and the system describe it.
        @Null package var source: FixSource?
        /// Seconds between the receiver's epochs, as chestd measured them (else as gpsd reported them): a place
        /// bears gaps of twice this, 5 to 15 s (docs/DESIGN.md "Lock rules"); absent from older chestd versions.
        @Null package var cadenceSeconds: Double?
    }

    package struct Clock: Hashable, Sendable, Codable {
        package var system: Date
        @Null package var gpsOffsetSeconds: Double?
        /// True when time locks follow GPS time because the system clock is ahead of it.
        package var usingGPSTime: Bool
        package var rolloverSuspected: Bool
        /// "system" or "gps": the clock time locks follow now.
        package var decidedBy: String
        /// Why that clock decides.
        package var why: String

    }

    package struct WeatherReport: Hashable, Sendable, Codable {
        @Null package var condition: String?
        @Null package var temperatureC: Double?
        package var observedAt: Date
        package var ageSeconds: Double
        package var provider: String
        package var latitude: Double
        package var longitude: Double

    }

    package struct SealedLocks: Hashable, Sendable, Codable {
        package var pending: Int
        package var cellsTried: Int
        package var deriving: Int
        /// Cells waiting for their key, the one being derived included (docs/DESIGN.md "Late keys"); absent from
        /// chestd versions before the queue.
        package var cellsWaiting: Int?
        /// About how long until every waiting cell is tried, in seconds.
        package var secondsLeft: Double?

        /// "deriving the key of 3 cells, about 5 s", or nil when no cell waits.
        package var waitingSentence: String? {
            guard let cells = cellsWaiting, cells > 0 else { return nil }
            let seconds = Int((secondsLeft ?? 0).rounded(.up))
            return "deriving the key of \(cells) \(cells == 1 ? "cell" : "cells"), about \(seconds) s"
        }
    }

    /// A place or altitude whose rule the fixes meet, counting its confirming fixes: why it has not opened yet.
    package struct Confirming: Hashable, Sendable, Codable {
        package var id: MessageID
        package var title: String
        package var page: Int
        /// `location` or `altitude`.
        package var kind: LockKind
        package var count: Int
        package var of: Int
        /// What `read` says of the lock: "fixes come every 5 s: 2 of 3 confirming fixes".
        package var reason: String
    }

    package struct Counts: Hashable, Sendable, Codable {
        package var locked: Int
        package var partial: Int
        package var open: Int
        package var saved: Int
    }

    package var gpsd: GPSD
    @Null package var fix: FixReport?
    /// Whether that fix can be used now, and if not why (gpsd gone, receiver lost, silent, no fix); absent from
    /// chestd versions before it.
    package var fixState: FixState?
    package var clock: Clock
    @Null package var weather: WeatherReport?
    package var messages: Counts
    /// Format 2: sealed location locks still waiting for their cell, cells tried without success, derivations
    /// under way.
    package var sealed: SealedLocks?
    /// Anything else worth saying (the weather provider's last error, a missing identity…).
    package var notes: [String]
    /// The hunt this chestd joined (`chest hunt join`); absent when none.
    package var hunt: HuntLinkStatus?
    /// The places and altitudes counting their confirming fixes now; absent from older chestd versions.
    package var confirming: [Confirming]?
}

extension Engine {
    /// The messages by openness, and the saved ones: one pass over the table, which a filtered copy of its
    /// 10,000 entries doubled in memory (docs/BENCHMARKS.md "Memory").
    package var messageCounts: StatusReport.Counts {
        var counts = StatusReport.Counts(locked: 0, partial: 0, open: 0, saved: 0)
        for stored in entries.values {
            switch (stored.chest, stored.openness) {
            case (.saved, _): counts.saved += 1
            case (.regular, .locked): counts.locked += 1
            case (.regular, .partial): counts.partial += 1
            case (.regular, .open): counts.open += 1
            }
        }
        return counts
    }

    package func status(now: Now, notes: [String] = []) -> StatusReport {
        let fix = lastFix.map { fix in
            StatusReport.FixReport(
                mode: fix.mode, latitude: fix.position?.latitude, longitude: fix.position?.longitude,
                altitudeMSL: fix.altitude3D ?? (fix.mode.hasPosition ? fix.altitudeMSL : nil),
                eph: fix.eph, epv: fix.epv, satellitesUsed: fix.satellitesUsed,
                satellitesSeen: fix.satellitesSeen, time: fix.time,
                ageSeconds: fix.age(at: now.monotonic), trust: trust.trust, source: trust.source,
                cadenceSeconds: cadence.seconds)
        }
        let weather = self.weather.map {
            StatusReport.WeatherReport(
                condition: $0.condition?.rawValue, temperatureC: $0.temperatureC,
                observedAt: $0.observedAt, ageSeconds: now.wall.timeIntervalSince($0.observedAt),
                provider: $0.provider, latitude: $0.coordinate.latitude,
                longitude: $0.coordinate.longitude)
        }
        return StatusReport(
            gpsd: .init(connected: gps.connected, server: gps.server, reason: gps.reason), fix: fix,
            fixState: fixState(now: now),
            clock: .init(
                system: now.wall, gpsOffsetSeconds: clock.offset, usingGPSTime: clock.correction(now) > 0,
                rolloverSuspected: clock.rolloverSuspected, decidedBy: clock.decision(now).clock,
                why: clock.decision(now).why),
            weather: weather, messages: messageCounts,
            sealed: StatusReport.SealedLocks(
                pending: sealSummary.pending, cellsTried: sealSummary.cellsTried,
                deriving: sealSummary.deriving, cellsWaiting: sealSummary.cellsWaiting,
                secondsLeft: sealSummary.secondsLeft), notes: notes, hunt: hunt, confirming: confirmingNow(now))
    }

    /// The locks counting confirming fixes, by message and page: one entry per streak under way, of which there are
    /// as many as places the reader stands in, not one per message.
    func confirmingNow(_ now: Now) -> [StatusReport.Confirming] {
        guard fixState(now: now).hasFix else { return [] }
        return streaks.compactMap { ref, streak -> StatusReport.Confirming? in
            guard streak.count > 0, let stored = entries[ref.id], stored.state.latched[ref.key] == nil else {
                return nil
            }
            // A confirming reason names a count and the receiver's cadence, never an instant: no zone is needed.
            let reason = confirming(ref).text(timeZone: .utc, now: now.wall)
            return StatusReport.Confirming(
                id: ref.id, title: stored.message.title, page: ref.key.page, kind: ref.key.kind,
                count: streak.count, of: Self.confirmations, reason: reason)
        }.sorted { ($0.id, $0.page, $0.kind.rawValue) < ($1.id, $1.page, $1.kind.rawValue) }
    }
}
