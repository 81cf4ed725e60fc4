import struct FoundationEssentials.Date

/// The rule of each lock kind, asked both when latching and when explaining: `nil` when the evidence satisfies
/// the lock, else what is missing. One function per kind, so the two cannot drift apart
/// (docs/DESIGN.md "Lock rules").
enum LockRule {
    /// Why no fix can count for a location or altitude lock right now: gpsd lost, no fix, or one older than
    /// `life` (the receiver's `ReceiverCadence.maximumGap`).
    static func fixProblem(_ fix: Fix?, connected: Bool, now: Now, life: Double) -> LockReason? {
        guard connected else { return .gpsNotConnected }
        guard let fix, fix.mode.hasPosition else { return .needsFix }
        guard fix.isFresh(at: now.monotonic, life: life) else {
            return .staleFix(ageSeconds: fix.age(at: now.monotonic))
        }
        return nil
    }

    /// A qualified fix within the radius, with an error estimate (when the receiver gives one) no larger than it.
    static func location(_ position: Coordinate, eph: Double?, center: Coordinate, radius: Double) -> LockReason? {
        let distance = position.distance(to: center)
        if distance > radius { return .away(metres: distance, bearing: position.bearing(to: center)) }
        if let eph, eph > radius { return .inaccurate(eph: eph, radius: radius) }
        return nil
    }

    /// A 3D fix inside the range, vertically accurate enough to say so.
    static func altitude(_ altitude: Double?, epv: Double?, bounds: Bounds) -> LockReason? {
        guard let altitude else { return .needs3DFix }
        if !bounds.contains(altitude) { return .altitude(current: altitude, needs: bounds) }
        let limit = verticalErrorLimit(bounds)
        if let epv, epv > limit { return .verticalError(epv: epv, needs: limit) }
        return nil
    }

    /// The vertical counterpart of the eph rule (docs/DESIGN.md "Lock rules"): a fix counts when its vertical error
    /// estimate is no larger than the range's whole width, with a floor of `verticalErrorFloor` for narrow
    /// ranges and a cap of `verticalErrorCap` for wide ones. An unknown epv is allowed, as an unknown eph is.
    /// Consumer receivers report 45–70 m on a good fix, which a ±40 m range must accept; a cold start's
    /// wandering altitude comes with 55–85 m, which a narrow range must refuse.
    static func verticalErrorLimit(_ bounds: Bounds) -> Double {
        min(max(bounds.max - bounds.min, verticalErrorFloor), verticalErrorCap)
    }

    /// Any range accepts a fix this accurate vertically: gpsd turns a consumer receiver's usual VDOP of 1 to 2
    /// into an epv of about 25 to 45 m.
    static let verticalErrorFloor = 50.0

    /// No range accepts a fix less accurate than this: a receiver's first fixes after a cold start report
    /// 150–650 m, and its altitude is then that far off.
    static let verticalErrorCap = 100.0

    /// The trusted time at or after the instant. `correction` is how far the system clock runs ahead of GPS time.
    static func time(_ instant: Date, trusted: Date, correction: Double) -> LockReason? {
        if instant <= trusted { return nil }
        return correction > 0 ? .clockAheadOfGPS(opensAt: instant, offsetSeconds: correction) : .opensAt(instant)
    }

    /// The linked page open in the reader's chest (docs/QUEST.md "Chains").
    static func after(_ link: PageLink, in stored: StoredMessage?) -> LockReason? {
        guard let stored else { return .waitsForMessage(link) }
        return stored.state.isOpen(page: link.page) ? nil : .waitsForPage(link, title: stored.message.title)
    }

    /// GPS time from a hardware receiver (`gps`, nil without one) at or after the instant.
    static func gpsTime(_ instant: Date, gps: Date?) -> LockReason? {
        guard let gps else { return .needsHardwareTime(opensAt: instant) }
        return instant <= gps ? nil : .opensAt(instant)
    }

    /// Fixes of this trust count for the message: any, unless its organiser asked for hardware.
    static func trust(_ trust: TrustAssessor, requiresHardware: Bool) -> LockReason? {
        requiresHardware && trust.level != .hardware ? .needsHardware(trust.trust.description) : nil
    }

    /// A known reading of that condition.
    static func weather(_ needs: WeatherCondition, _ reading: WeatherReading) -> LockReason? {
        switch reading {
        case let .unknown(why): return .weatherUnknown(why, temperature: false)
        case let .known(observation):
            return observation.condition == needs ? nil : .weather(current: observation.condition, needs: needs)
        }
    }

    /// A known reading whose temperature is inside the range.
    static func temperature(_ bounds: Bounds, _ reading: WeatherReading) -> LockReason? {
        switch reading {
        case let .unknown(why): return .weatherUnknown(why, temperature: true)
        case let .known(observation):
            guard let temperature = observation.temperatureC else {
                return .weatherUnknown(.noTemperature, temperature: true)
            }
            return bounds.contains(temperature) ? nil : .temperature(current: temperature, needs: bounds)
        }
    }
}
