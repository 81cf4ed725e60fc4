import struct Foundation.Date

/// The senders this user has met and the key each came with (docs/SECURITY.md "Known senders"): trust on first
/// use, as ssh's known_hosts. A sender's name is whatever its file says; the key is what it cannot fake. The
/// first key met under a name is kept; a message under that name signed by another key is flagged until the
/// user trusts the new key (`chest senders trust`) or forgets the name. Pure: `KnownSendersFile` keeps it.
public struct KnownSenders: Codable, Hashable, Sendable {
    public struct Entry: Codable, Hashable, Sendable {
        /// Ed25519 public key, base64.
        public var key: String
        /// When chest first met this name with this key (or the user trusted it).
        public var since: Date
    }

    /// How a message's sender stands against what was known.
    public enum Verdict: Hashable, Sendable {
        /// The name was not known: its key is now.
        case new
        /// The name is known with this key.
        case known
        /// The name is known with another key: `previous`.
        case changed(previous: Entry)
    }

    /// Name → the key known for it.
    public private(set) var senders: [String: Entry] = [:]

    public init() {}

    /// Meets a sender: a name never met is recorded with its key (trust on first use).
    public mutating func meet(_ name: String, key: String, at now: Date) -> Verdict {
        guard let entry = senders[name] else {
            senders[name] = Entry(key: key, since: now)
            return .new
        }
        return entry.key == key ? .known : .changed(previous: entry)
    }

    /// What `meet` would say, recording nothing.
    public func verdict(_ name: String, key: String) -> Verdict {
        guard let entry = senders[name] else { return .new }
        return entry.key == key ? .known : .changed(previous: entry)
    }

    /// Makes `key` the one known for `name` (a sender who really changed keys).
    public mutating func trust(_ name: String, key: String, at now: Date) {
        senders[name] = Entry(key: key, since: now)
    }

    /// Forgets a name; returns whether it was known. The next message under it is met anew.
    @discardableResult
    public mutating func forget(_ name: String) -> Bool { senders.removeValue(forKey: name) != nil }

    /// The words a flagged sender gets in `list`, `read` and `watch`.
    public static func changedWords(_ name: String) -> String {
        "\(TerminalText.escaped(name)) \u{2014} not the key you had before"
    }
}
