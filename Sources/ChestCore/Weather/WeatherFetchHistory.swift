import FoundationEssentials

/// What happened to the recent weather requests: the input `WeatherSchedule` needs besides the cache.
///
/// The daemon calls `started(at:)` when it sends a request and `succeeded(at:)` or `failed(at:…)` when it ends.
package struct WeatherFetchHistory: Hashable, Sendable, Codable {
    /// When the latest request was sent.
    package private(set) var lastAttempt: Date?
    /// Whether a request has been sent and has not ended yet.
    package private(set) var inFlight = false
    /// Requests that failed in a row since the last success.
    package private(set) var consecutiveFailures = 0
    /// The least wait the provider asked for after the last failure (a 429's Retry-After), in seconds.
    package private(set) var retryAfter: TimeInterval?
    /// When the current run of network failures began (`nil` while requests get through).
    package private(set) var offlineSince: Date?
    /// When a request last succeeded.
    package private(set) var lastSuccess: Date?

    package init() {}

    /// Records that a request is being sent.
    package mutating func started(at now: Date) {
        lastAttempt = now
        inFlight = true
    }

    /// Records a reply that was used.
    package mutating func succeeded(at now: Date) {
        inFlight = false
        consecutiveFailures = 0
        retryAfter = nil
        offlineSince = nil
        lastSuccess = now
    }

    /// Records a failed request.
    /// - Parameters:
    ///   - retryAfter: the least wait the provider asked for, in seconds, if any.
    ///   - offline: whether the provider could not be reached at all (as opposed to refusing the request); only
    ///     these failures make the weather read "offline since…".
    package mutating func failed(at now: Date, retryAfter: TimeInterval? = nil, offline: Bool) {
        inFlight = false
        if lastAttempt == nil { lastAttempt = now }
        consecutiveFailures += 1
        self.retryAfter = retryAfter
        if offline {
            if offlineSince == nil { offlineSince = lastAttempt ?? now }
        } else {
            offlineSince = nil
        }
    }

    /// Forgets failures and waits, as after the user changes the key or the provider: the next request goes at once.
    package mutating func reset() {
        let success = lastSuccess
        self = WeatherFetchHistory()
        lastSuccess = success
    }
}
