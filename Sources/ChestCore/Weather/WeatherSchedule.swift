import FoundationEssentials

/// When to ask the weather provider, and when a cached reading may be used (docs/DESIGN.md "Lock rules", "Reliability and security", "Weather").
///
/// Requests go only while a weather or temperature lock is pending and a fix exists (privacy, battery and the
/// providers' limits), for the position rounded to 0.01°, about every `refreshInterval`, and further apart after
/// failures. Every function is pure: `now` is a parameter.
package struct WeatherSchedule: Hashable, Sendable {
    /// How long a reading is trusted before a new one is asked for, by fetch time.
    package var refreshInterval: TimeInterval
    /// The oldest reading, by observation time, a lock may use.
    package var maxAge: TimeInterval
    /// The farthest a reading's position may be from the reader for a lock to use it, in metres.
    package var maxDistance: Double
    /// The least time between two requests, whatever happens.
    package var minimumSpacing: TimeInterval
    /// The wait after the first failure; it doubles with each further failure up to `maxBackoff`.
    package var firstBackoff: TimeInterval
    package var maxBackoff: TimeInterval
    /// The longest wait a provider's Retry-After is obeyed for (a bogus "come back next year" must not stop weather).
    package var maxRetryAfter: TimeInterval

    /// Decimal places of the coordinates sent to the provider: 0.01° is about 1.1 km.
    package static let coordinatePlaces = 2

    /// - Parameters:
    ///   - refreshInterval: 10 minutes: OpenWeatherMap asks for no more than one call per place per 10 minutes,
    ///     and Open-Meteo's current conditions change every 15.
    ///   - maxAge: 30 minutes (docs/DESIGN.md "Lock rules").
    ///   - maxDistance: 5 km (docs/DESIGN.md "Lock rules").
    package init(
        refreshInterval: TimeInterval = 10 * 60, maxAge: TimeInterval = 30 * 60, maxDistance: Double = 5_000,
        minimumSpacing: TimeInterval = 60, firstBackoff: TimeInterval = 60, maxBackoff: TimeInterval = 15 * 60,
        maxRetryAfter: TimeInterval = 24 * 3600
    ) {
        self.refreshInterval = refreshInterval
        self.maxAge = maxAge
        self.maxDistance = maxDistance
        self.minimumSpacing = minimumSpacing
        self.firstBackoff = firstBackoff
        self.maxBackoff = maxBackoff
        self.maxRetryAfter = maxRetryAfter
    }

    // MARK: - Refresh policy

    /// Decides whether to request the weather now, for which position, and when to ask again.
    /// - Parameters:
    ///   - pending: whether any weather or temperature lock is still waiting.
    ///   - position: the reader's current qualified fix, if any.
    ///   - cached: the reading the daemon would use (normally the newest one near `position`).
    package func plan(
        pending: Bool, position: Coordinate?, cached: WeatherObservation?, history: WeatherFetchHistory,
        now: Date
    ) -> WeatherFetchPlan {
        guard pending else { return WeatherFetchPlan(fetch: nil, nextCheck: nil, reason: .nothingPending) }
        guard let position, position.isValid else {
            return WeatherFetchPlan(fetch: nil, nextCheck: nil, reason: .noFix)
        }
        guard !history.inFlight else { return WeatherFetchPlan(fetch: nil, nextCheck: nil, reason: .inFlight) }

        // A reading whose fetch time lies ahead of the clock (the clock was set back) is refreshed at once,
        // and so are a missing reading and one from too far away.
        var due = now
        var dueReason = WeatherFetchPlan.Reason.missing
        if let cached {
            if cached.coordinate.distance(to: position) > maxDistance {
                dueReason = .moved
            } else if cached.fetchedAt <= now {
                due = cached.fetchedAt + refreshInterval
                dueReason = .refresh
            }
        }

        var allowed = now
        var waitReason = dueReason
        // An attempt dated after `now` means the clock was set back: its waits are forgotten, or they would last
        // until the clock caught up again.
        if let attempt = history.lastAttempt, attempt <= now {
            if attempt + minimumSpacing > allowed {
                allowed = attempt + minimumSpacing
                waitReason = .tooSoon
            }
            if history.consecutiveFailures > 0 {
                let backedOff = attempt + backoff(afterFailures: history.consecutiveFailures)
                if backedOff > allowed {
                    allowed = backedOff
                    waitReason = .backingOff
                }
            }
            if let retryAfter = history.retryAfter {
                let asked = attempt + min(max(retryAfter, 0), maxRetryAfter)
                if asked > allowed {
                    allowed = asked
                    waitReason = .retryAfter
                }
            }
        }

        let when = max(due, allowed)
        if when <= now {
            return WeatherFetchPlan(
                fetch: position.rounded(places: Self.coordinatePlaces),
                nextCheck: now + refreshInterval, reason: dueReason)
        }
        return WeatherFetchPlan(fetch: nil, nextCheck: when, reason: due >= allowed ? .fresh : waitReason)
    }

    /// The wait after `failures` failures in a row: `firstBackoff`, doubled per further failure, at most `maxBackoff`.
    package func backoff(afterFailures failures: Int) -> TimeInterval {
        guard failures > 0 else { return 0 }
        var wait = firstBackoff
        for _ in 1..<min(failures, 32) where wait < maxBackoff { wait *= 2 }
        return min(wait, maxBackoff)
    }

    // MARK: - Freshness

    /// The reading a weather or temperature lock may use at `position`, or why there is none.
    ///
    /// A reading is usable when it was observed at most `maxAge` ago (and not as far ahead of the clock) and was
    /// asked for within `maxDistance` of `position`.
    /// - Parameter offlineSince: when requests started failing to reach the provider (`WeatherFetchHistory`);
    ///   while it is set, an unusable reading is explained as "offline since…".
    package func reading(
        of cached: WeatherObservation?, at position: Coordinate, now: Date,
        offlineSince: Date? = nil
    ) -> WeatherReading {
        reading(among: cached.map { [$0] } ?? [], at: position, now: now, offlineSince: offlineSince)
    }

    /// The best usable reading among several (the newest observed, then the nearest), or why none is usable.
    package func reading(
        among observations: [WeatherObservation], at position: Coordinate, now: Date,
        offlineSince: Date? = nil
    ) -> WeatherReading {
        let usable = observations.filter {
            isFresh($0, now: now) && $0.coordinate.distance(to: position) <= maxDistance
        }
        if let best = usable.min(by: { a, b in
            a.observedAt != b.observedAt
                ? a.observedAt > b.observedAt
                : a.coordinate.distance(to: position) < b.coordinate.distance(to: position)
        }) {
            return .known(best)
        }
        if let offlineSince { return .unknown(.offline(since: offlineSince)) }
        let near = observations.filter { $0.coordinate.distance(to: position) <= maxDistance }
        if let newest = near.max(by: { $0.observedAt < $1.observedAt }) {
            return .unknown(.stale(age: now.timeIntervalSince(newest.observedAt)))
        }
        if let nearest = observations.map({ $0.coordinate.distance(to: position) }).min() {
            return .unknown(.far(distance: nearest))
        }
        return .unknown(.missing)
    }

    private func isFresh(_ observation: WeatherObservation, now: Date) -> Bool {
        abs(now.timeIntervalSince(observation.observedAt)) <= maxAge
    }
}

/// What `WeatherSchedule.plan` decided.
package struct WeatherFetchPlan: Hashable, Sendable {
    /// The position to request now, rounded to 0.01°; `nil` means no request now.
    package var fetch: Coordinate?
    /// When to consult the schedule again if nothing changes; `nil` means only when an input changes (a weather or
    /// temperature lock becomes pending, a fix arrives, a request ends).
    package var nextCheck: Date?
    /// Why, for status and logs.
    package var reason: Reason

    package enum Reason: String, Hashable, Sendable {
        /// No weather or temperature lock is waiting: nothing is sent.
        case nothingPending
        /// No qualified fix: nothing is sent.
        case noFix
        /// A request is under way.
        case inFlight
        /// There is no reading yet.
        case missing
        /// The reader is too far from the cached reading's position.
        case moved
        /// The cached reading is due for renewal.
        case refresh
        /// The cached reading is recent enough.
        case fresh
        /// The last request went less than `minimumSpacing` ago.
        case tooSoon
        /// Waiting longer after failures.
        case backingOff
        /// Waiting as the provider asked after a 429.
        case retryAfter
    }

    package init(fetch: Coordinate?, nextCheck: Date?, reason: Reason) {
        self.fetch = fetch
        self.nextCheck = nextCheck
        self.reason = reason
    }
}
