import struct FoundationEssentials.Date

/// How much the board takes from one team's topics (docs/HUNTS.md "A team that floods"): `burst` messages at once,
/// then `perSecond`, a token bucket per team. Mosquitto has no rate per client, and the ACL keeps a team to its own
/// topics but not to a pace: without a bound, one team sending signed messages as fast as it can makes the board
/// check two signatures and journal a line for each. Beyond its rate a team's message is refused as `tooFast`
/// before anything about it is checked. What the broker hands over on subscribing (retained) is not counted: it is
/// at most what the broker keeps, once a connection.
///
/// Every topic below a team's name is the team's, whatever follows it (`HuntTopic.teamLevel`): a message on
/// `receipt/<not-an-id>` costs the board a signature check before the gate refuses it, as a well-formed one does.
/// Topics below a name that is no team of the hunt (a team removed from the file, a broker whose ACL lets others
/// through) share one bucket. Only the organiser's own topics, which the ACL lets no team write, are not rated.
///
/// `chest board` checks it on its network thread, before a message enters the loop's mailbox, so that a flood costs
/// the loop nothing but a count (`takeRefused`); it holds nothing of the board but the hunt's team names. The same
/// thread counts here what the loop's mailbox had no room for (`overflowed`), so the loop takes both at once.
package struct TeamRate: Sendable {
    /// An honest team sends a status every 30 s or so and a receipt a page; a chestd that was offline for hours sends
    /// its outbox at once: every page it opened meanwhile, with a status before and after.
    package static let burst = 100.0
    package static let perSecond = 1.0

    /// Messages refused unread since the last `takeRefused`, for one reason and one team (or none): the first one's
    /// topic and time, and how many.
    package struct Refused: Hashable, Sendable {
        package var topic: String
        package var at: Date
        package var count: Int
        /// `tooFast`, or `queueFull` for what the loop's mailbox had no room for.
        package var reason: HuntGate.Refusal

        package init(topic: String, at: Date, count: Int, reason: HuntGate.Refusal = .tooFast) {
            self.topic = topic
            self.at = at
            self.count = count
            self.reason = reason
        }
    }

    /// `chest/<hunt>/`, the start of every topic of this hunt.
    private let prefix: String
    private let teams: Set<String>
    private var buckets: [String: Bucket] = [:]
    private var refused: [Key: Refused] = [:]

    private struct Bucket {
        var tokens: Double
        var at: Date
    }

    /// A reason and a bucket's name ("" for none).
    private struct Key: Hashable {
        var reason: HuntGate.Refusal
        var bucket: String
    }

    /// A rate for the teams of `hunt`, on their topics (`admits`).
    package init(hunt: HuntFile) {
        prefix = HuntTopic.prefix(hunt: hunt.id)
        teams = Set(hunt.teams.map(\.name.rawValue))
    }

    /// Whether a message on `topic` may go on to the board; when not, it is counted for `takeRefused`. Every topic
    /// below a team's name counts (`bucket`), not what the broker hands over on subscribing (`retained`).
    package mutating func admits(topic: String, retained: Bool, at now: Date) -> Bool {
        guard !retained, let bucket = bucket(topic) else { return true }
        if take(bucket, at: now) { return true }
        refused[Key(reason: .tooFast, bucket: bucket), default: Refused(topic: topic, at: now, count: 0)].count += 1
        return false
    }

    /// Counts a message within its rate that the loop's mailbox had no room for (docs/HUNTS.md "A team that floods"):
    /// nobody's in particular, since a full queue drops whatever comes next, an honest team's as much as another's.
    /// Its topic is the whole hunt's, so the core attributes it to no team.
    package mutating func overflowed(at now: Date) {
        refused[
            Key(reason: .queueFull, bucket: ""),
            default: Refused(topic: prefix + "#", at: now, count: 0, reason: .queueFull)
        ].count += 1
    }

    /// The refusals since the last call, the earliest first; forgets them.
    package mutating func takeRefused() -> [Refused] {
        guard !refused.isEmpty else { return [] }
        defer { refused = [:] }
        return refused.values.sorted { ($0.at, $0.topic, $0.reason.rawValue) < ($1.at, $1.topic, $1.reason.rawValue) }
    }

    /// Whether the bucket may take one more message at `now`; takes it when it may.
    private mutating func take(_ name: String, at now: Date) -> Bool {
        var bucket = buckets[name] ?? Bucket(tokens: Self.burst, at: now)
        let elapsed = max(0, now.timeIntervalSince(bucket.at))
        bucket.tokens = min(Self.burst, bucket.tokens + elapsed * Self.perSecond)
        bucket.at = now
        let admitted = bucket.tokens >= 1
        if admitted { bucket.tokens -= 1 }
        buckets[name] = bucket
        return admitted
    }

    /// The bucket a message on `topic` is taken from: its team's, for any topic below a team's name; "" for one below
    /// any other name; nil for the organiser's own topics (and another hunt's, which the board does not subscribe to).
    func bucket(_ topic: String) -> String? {
        guard let level = HuntTopic.teamLevel(topic, under: prefix) else { return nil }
        let team = String(level)
        return teams.contains(team) ? team : ""
    }
}
