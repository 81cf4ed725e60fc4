import struct FoundationEssentials.Date

/// How much the board takes from one team's topics (docs/HUNTS.md "A team that floods"): `burst` messages at once,
/// then `perSecond`, a token bucket per team. Mosquitto has no rate per client, and the ACL keeps a team to its own
/// topics but not to a pace: without a bound, one team sending signed statuses as fast as it can makes the board
/// check two signatures and journal a line for each. Beyond its rate a team's message is refused as `tooFast`
/// before anything about it is checked. What the broker hands over on subscribing (retained) is not counted: it is
/// at most what the broker keeps, once a connection.
///
/// `chest board` checks it on its network thread, before a message enters the loop's mailbox, so that a flood costs
/// the loop nothing but a count (`takeRefused`); it holds nothing of the board but the hunt's team names.
package struct TeamRate: Sendable {
    /// An honest team sends a status every 30 s or so and a receipt a page; a chestd that was offline for hours sends
    /// its outbox at once: every page it opened meanwhile, with a status before and after.
    package static let burst = 100.0
    package static let perSecond = 1.0

    /// Messages of one team refused since the last `takeRefused`: the first one's topic and time, and how many.
    package struct Refused: Hashable, Sendable {
        package var topic: String
        package var at: Date
        package var count: Int
    }

    private let hunt: HuntID
    private let teams: Set<String>
    private var buckets: [String: Bucket] = [:]
    private var refused: [String: Refused] = [:]

    private struct Bucket {
        var tokens: Double
        var at: Date
    }

    /// A rate for the teams of `hunt`, on their topics (`admits`).
    package init(hunt: HuntFile) {
        self.hunt = hunt.id
        teams = Set(hunt.teams.map(\.name.rawValue))
    }

    /// Whether a message on `topic` may go on to the board; when not, it is counted for `takeRefused`. Only a team's
    /// topics of this hunt count (receipts, statuses, hint requests), and not what the broker hands over on
    /// subscribing (`retained`).
    package mutating func admits(topic: String, retained: Bool, at now: Date) -> Bool {
        guard !retained, let team = Self.team(topic, hunt: hunt), teams.contains(team) else { return true }
        if take(team, at: now) { return true }
        refused[team, default: Refused(topic: topic, at: now, count: 0)].count += 1
        return false
    }

    /// The refusals since the last call, the earliest first; forgets them.
    package mutating func takeRefused() -> [Refused] {
        guard !refused.isEmpty else { return [] }
        defer { refused = [:] }
        return refused.values.sorted { ($0.at, $0.topic) < ($1.at, $1.topic) }
    }

    /// Whether `team` may send one more message at `now`; takes it from its bucket when it may.
    private mutating func take(_ team: String, at now: Date) -> Bool {
        var bucket = buckets[team] ?? Bucket(tokens: Self.burst, at: now)
        let elapsed = max(0, now.timeIntervalSince(bucket.at))
        bucket.tokens = min(Self.burst, bucket.tokens + elapsed * Self.perSecond)
        bucket.at = now
        let admitted = bucket.tokens >= 1
        if admitted { bucket.tokens -= 1 }
        buckets[team] = bucket
        return admitted
    }

    private static func team(_ topic: String, hunt: HuntID) -> String? {
        switch HuntTopic.parse(topic, hunt: hunt) {
        case .receipt(let team, _)?, .status(let team)?, .hintRequest(let team, _)?: team
        default: nil
        }
    }
}
