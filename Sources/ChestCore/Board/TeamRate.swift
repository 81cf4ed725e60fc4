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

    /// `chest/<hunt>/`, the start of every topic of this hunt.
    private let prefix: String
    private let teams: Set<String>
    private var buckets: [String: Bucket] = [:]
    private var refused: [String: Refused] = [:]

    private struct Bucket {
        var tokens: Double
        var at: Date
    }

    /// A rate for the teams of `hunt`, on their topics (`admits`).
    package init(hunt: HuntFile) {
        prefix = "chest/\(hunt.id)/"
        teams = Set(hunt.teams.map(\.name.rawValue))
    }

    /// Whether a message on `topic` may go on to the board; when not, it is counted for `takeRefused`. Only a team's
    /// topics of this hunt count (receipts, statuses, hint requests), and not what the broker hands over on
    /// subscribing (`retained`).
    package mutating func admits(topic: String, retained: Bool, at now: Date) -> Bool {
        guard !retained, let team = team(topic) else { return true }
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

    /// The team whose receipt, status or hint request `topic` is, when it is one of the hunt's teams: what
    /// `HuntTopic.parse` says of it, read in place, since this runs for every message a flood brings (the levels
    /// `parse` splits into were a fifth of the network thread's time under a flood, docs/BENCHMARKS.md "A city").
    func team(_ topic: String) -> String? {
        let bytes = topic.utf8
        guard bytes.starts(with: prefix.utf8) else { return nil }
        let rest = bytes.dropFirst(prefix.utf8.count)
        guard let slash = rest.firstIndex(of: UInt8(ascii: "/")) else { return nil }
        let kind = rest[bytes.index(after: slash)...]
        let status = "status".utf8
        if !kind.elementsEqual(status) {
            guard let next = kind.firstIndex(of: UInt8(ascii: "/")),
                kind[..<next].elementsEqual("receipt".utf8) || kind[..<next].elementsEqual("hint".utf8),
                Self.isID(kind[bytes.index(after: next)...])
            else { return nil }
        }
        let team = String(Substring(rest[..<slash]))
        return teams.contains(team) ? team : nil
    }

    /// An id level as `HuntTopic.parse` takes it: digits without a leading zero, within 64 bits.
    private static func isID(_ level: Substring.UTF8View) -> Bool {
        guard let first = level.first, first != UInt8(ascii: "0"), level.count <= 20 else { return false }
        var value: UInt64 = 0
        for byte in level {
            guard (0x30...0x39).contains(byte) else { return false }
            let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = times.addingReportingOverflow(UInt64(byte - 0x30))
            if overflowTimes || overflowSum { return false }
            value = sum
        }
        return true
    }
}
