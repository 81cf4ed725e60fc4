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
        /// The name is not the known one `known`, but reads the same (`skeleton`: Cyrillic or Greek letters for Latin
        /// ones, invisible or no-break spaces) and comes with another key: a lookalike.
        case lookalike(of: String, known: Entry)
    }

    /// Name → the key known for it.
    public private(set) var senders: [String: Entry] = [:]

    public init() {}

    /// Meets a sender: a name never met is recorded with its key (trust on first use), unless it is a lookalike of
    /// a known name under another key: that is never recorded, so it stays flagged.
    public mutating func meet(_ name: String, key: String, at now: Date) -> Verdict {
        let verdict = verdict(name, key: key)
        if verdict == .new { senders[name] = Entry(key: key, since: now) }
        return verdict
    }

    /// What `meet` would say, recording nothing. A name recorded before lookalikes were flagged is still flagged
    /// when an earlier-known name it reads as has another key.
    public func verdict(_ name: String, key: String) -> Verdict {
        if let entry = senders[name], entry.key != key { return .changed(previous: entry) }
        let since = senders[name]?.since ?? .distantFuture
        let skeleton = Self.skeleton(name)
        if let (other, entry) = senders.filter({ $0.key != name && $0.value.key != key && $0.value.since <= since })
            .sorted(by: { ($0.value.since, $0.key) < ($1.value.since, $1.key) })
            .first(where: { Self.skeleton($0.key) == skeleton }) {
            return .lookalike(of: other, known: entry)
        }
        return senders[name] == nil ? .new : .known
    }

    /// What a name reads as: compatibility-normalised and lowercased, invisible characters dropped, every kind of
    /// space one space, letters that look alike in other scripts (Cyrillic, Greek, Ukrainian і) and digits that
    /// pass for letters folded onto one Latin letter. Two names with one skeleton are lookalikes.
    public static func skeleton(_ name: String) -> String {
        var folded = ""
        var space = false
        for scalar in name.precomposedStringWithCompatibilityMapping.lowercased().unicodeScalars {
            if scalar.properties.generalCategory == .format || invisible.contains(scalar.value) { continue }
            if scalar.properties.isWhitespace {
                space = !folded.isEmpty
                continue
            }
            if space { folded.append(" ") }
            space = false
            if let latin = confusables[scalar] { folded += latin } else { folded.unicodeScalars.append(scalar) }
        }
        return folded.replacingOccurrences(of: "rn", with: "m").replacingOccurrences(of: "vv", with: "w")
    }

    /// The name with what makes it a lookalike written out: other scripts' lookalike letters, invisible characters and
    /// spaces other than U+0020 as \u{…}, the rest as `TerminalText.escaped` shows it.
    public static func revealed(_ name: String) -> String {
        var shown = ""
        for scalar in name.unicodeScalars {
            let lower = String(scalar).lowercased().unicodeScalars.first ?? scalar
            let hidden = scalar.value > 0x7F && (confusables[scalar] != nil || confusables[lower] != nil
                || invisible.contains(scalar.value) || scalar.properties.isWhitespace)
            shown += hidden ? "\\u{" + String(scalar.value, radix: 16) + "}" : TerminalText.escaped(String(scalar))
        }
        return shown
    }

    /// For each name that reads as an earlier one of `names` (in their order) but is not it, that earlier name: the
    /// board's teams each have their own key, so a lookalike there is always another key's.
    public static func lookalikes(among names: [String]) -> [String: String] {
        var first: [String: String] = [:], found: [String: String] = [:]
        for name in names {
            let skeleton = skeleton(name)
            if let earlier = first[skeleton], earlier != name { found[name] = earlier } else if first[skeleton] == nil { first[skeleton] = name }
        }
        return found
    }

    /// Characters that show nothing though they are not format characters (combining grapheme joiner, Hangul
    /// fillers, braille blank).
    private static let invisible: Set<UInt32> = [0x034F, 0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800, 0x180E]

    /// Lowercase letters of other scripts (and digits) that read as a Latin letter; i, l, 1 and | are one.
    private static let confusables: [Unicode.Scalar: String] = {
        let pairs: [(String, String)] = [
            // Cyrillic, Ukrainian and other Cyrillic-script letters.
            ("а", "a"), ("в", "b"), ("е", "e"), ("ё", "ë"), ("к", "k"), ("м", "m"), ("н", "h"), ("о", "o"), ("р", "p"),
            ("с", "c"), ("т", "t"), ("у", "y"), ("х", "x"), ("ѕ", "s"), ("і", "l"), ("ї", "ï"), ("ј", "j"), ("ԁ", "d"),
            ("ԛ", "q"), ("ԝ", "w"), ("һ", "h"), ("ӏ", "l"), ("ɡ", "g"), ("ү", "y"), ("ь", "b"),
            // Greek.
            ("α", "a"), ("β", "b"), ("ε", "e"), ("ζ", "z"), ("η", "h"), ("ι", "l"), ("κ", "k"), ("μ", "m"), ("ν", "n"),
            ("ο", "o"), ("ρ", "p"), ("τ", "t"), ("υ", "u"), ("χ", "x"), ("ϲ", "c"), ("ϳ", "j"),
            // Latin lookalikes and digits.
            ("i", "l"), ("ı", "l"), ("1", "l"), ("|", "l"), ("0", "o"), ("ℓ", "l"),
        ]
        return Dictionary(uniqueKeysWithValues: pairs.map { (Unicode.Scalar($0.0.unicodeScalars.first!.value)!, $0.1) })
    }()

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

    /// The words a lookalike sender gets in `list`, `read`, `watch` and the board: the name is shown escaped, so an
    /// invisible or no-break space is visible.
    public static func lookalikeWords(_ name: String, of known: String) -> String {
        "\(revealed(name)) \u{2014} a lookalike of \(TerminalText.escaped(known)), a sender you know under another key"
    }
}
