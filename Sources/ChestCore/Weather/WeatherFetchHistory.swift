import FoundationEssentials

/// What happened to the recent weather requests: the input `WeatherSchedule` needs besides the cache.
///
/// The daemon calls `started(at:)` when it sends a request and `succeeded(at:)` or `failed(at:…)` when it ends.
public struct WeatherFetchHistory: Hashable, Sendable, Codable {
    /// When the latest request was sent.
    public private(set) var lastAttempt: Date?
    /// Whether a request has been sent and has not ended yet.
    public private(set) var inFlight = false
    /// Requests that failed in a row since the last success.
    public private(set) var consecutiveFailures = 0
    /// The least wait the provider asked for after the last failure (a 429's Retry-After), in seconds.
    public private(set) var retryAfter: TimeInterval?
    /// When the current run of network failures began (`nil` while requests get through).
    public private(set) var offlineSince: Date?
    /// When a request last succeeded.
    public private(set) var lastSuccess: Date?

    public init() {}

    /// Records that a request is being sent.
    public mutating func started(at now: Date) {
        lastAttempt = now
        inFlight = true
    }

    /// Records a reply that was used.
    public mutating func succeeded(at now: Date) {
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
    public mutating func failed(at now: Date, retryAfter: TimeInterval? = nil, offline: Bool) {
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
    public mutating func reset() {
        let success = lastSuccess
        self = WeatherFetchHistory()
        lastSuccess = success
    }
}
