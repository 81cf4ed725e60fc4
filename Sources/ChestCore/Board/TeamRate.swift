import struct FoundationEssentials.Date

/// How much the board takes from one team's topics (docs/HUNTS.md "A team that floods"): `burst` messages at once,
/// then `perSecond`, a token bucket per team. Mosquitto has no rate per client, and the ACL keeps a team to its own
/// topics but not to a pace: without a bound, one team sending signed statuses as fast as it can makes the board
/// check two signatures and journal a line for each. Beyond its rate a team's message is refused as `tooFast`
/// before anything about it is checked. What the broker hands over on subscribing (retained) is not counted: it is
/// at most what the broker keeps, once a connection.
package struct TeamRate: Sendable {
    /// An honest team sends a status every 30 s or so and a receipt a page; a chestd that was offline for hours sends
    /// its outbox at once: every page it opened meanwhile, with a status before and after.
    package static let burst = 100.0
    package static let perSecond = 1.0

    private var buckets: [String: Bucket] = [:]

    private struct Bucket {
        var tokens: Double
        var at: Date
    }

    package init() {}

    /// Whether `team` may send one more message at `now`; takes it from its bucket when it may.
    package mutating func take(_ team: String, at now: Date) -> Bool {
        var bucket = buckets[team] ?? Bucket(tokens: Self.burst, at: now)
        let elapsed = max(0, now.timeIntervalSince(bucket.at))
        bucket.tokens = min(Self.burst, bucket.tokens + elapsed * Self.perSecond)
        bucket.at = now
        let admitted = bucket.tokens >= 1
        if admitted { bucket.tokens -= 1 }
        buckets[team] = bucket
        return admitted
    }
}
