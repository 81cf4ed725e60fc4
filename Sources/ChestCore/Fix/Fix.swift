import struct FoundationEssentials.Date

/// One report from the GPS receiver, as gpsd gave it. Unknown values are `nil`, never zero or NaN.
package struct Fix: Hashable, Sendable, Codable {
    /// gpsd's fix mode.
    package var mode: FixMode
    package var coordinate: Coordinate?
    /// Altitude above mean sea level (gpsd's `altMSL`), in metres.
    package var altitudeMSL: Double?
    /// Horizontal error estimate (gpsd's `eph`), in metres.
    package var eph: Double?
    /// Vertical error estimate (gpsd's `epv`), in metres.
    package var epv: Double?
    package var satellitesUsed: Int?
    /// Satellites the latest SKY report lists (in view, used or not); set after the fix is made.
    package var satellitesSeen: Int?
    /// The receiver's own UTC time for this fix.
    package var time: Date?
    /// When the daemon received it, in seconds of its monotonic clock.
    package var receivedAt: Double
    /// gpsd's status when it sent one (3.22 sends only 2 and above; 8 is a simulated fix).
    package var status: Int?
    /// The latest SKY report's satellites, for the trust checks.
    package var sky: SkySummary?

    package init(
        mode: FixMode, coordinate: Coordinate? = nil, altitudeMSL: Double? = nil, eph: Double? = nil,
        epv: Double? = nil, satellitesUsed: Int? = nil, time: Date? = nil, receivedAt: Double,
        status: Int? = nil, sky: SkySummary? = nil
    ) {
        self.mode = mode
        self.coordinate = coordinate
        self.altitudeMSL = altitudeMSL
        self.eph = eph
        self.epv = epv
        self.satellitesUsed = satellitesUsed
        self.time = time
        self.receivedAt = receivedAt
        self.status = status
        self.sky = sky
    }

    /// A fix older than this, by the monotonic clock, is stale and opens nothing (docs/DESIGN.md "Lock rules").
    package static let maximumAge = 5.0

    /// The position, when this is a 2D or 3D fix with a finite, in-range latitude and longitude.
    package var position: Coordinate? {
        guard mode.hasPosition, let coordinate, coordinate.isValid else { return nil }
        return coordinate
    }

    /// The altitude, when this is a 3D fix that carries one.
    package var altitude3D: Double? {
        guard mode.is3D, position != nil else { return nil }
        return altitudeMSL
    }

    /// Seconds since the daemon received this fix.
    package func age(at monotonicNow: Double) -> Double { max(0, monotonicNow - receivedAt) }

    /// Whether the fix is recent enough to open anything: at most `life` seconds old (`Fix.maximumAge`, or longer
    /// for a slow receiver: `ReceiverCadence.maximumGap`).
    package func isFresh(at monotonicNow: Double, life: Double = Fix.maximumAge) -> Bool {
        age(at: monotonicNow) <= life
    }
}
