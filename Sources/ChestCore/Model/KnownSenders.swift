import struct FoundationEssentials.Date

/// The senders this user has met and the key each came with (docs/SECURITY.md "Known senders"): trust on first
/// use, as ssh's known_hosts. A sender's name is whatever its file says; the key is what it cannot fake. The
/// first key met under a name is kept; a message under that name signed by another key is flagged until the
/// user trusts the new key (`chest senders trust`) or forgets the name. Pure: `KnownSendersFile` keeps it.
package struct KnownSenders: Codable, Hashable, Sendable {
    package struct Entry: Codable, Hashable, Sendable {
        /// Ed25519 public key, base64.
        package var key: String
        /// When chest first met this name with this key (or the user trusted it).
        package var since: Date
    }

    /// How a message's sender stands against what was known.
    package enum Verdict: Hashable, Sendable {
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
    package private(set) var senders: [String: Entry] = [:]

    package init() {}

    /// Meets a sender: a name never met is recorded with its key (trust on first use), unless it is a lookalike of
    /// a known name under another key: that is never recorded, so it stays flagged.
    package mutating func meet(_ name: String, key: String, at now: Date) -> Verdict {
        let verdict = verdict(name, key: key)
        if verdict == .new { senders[name] = Entry(key: key, since: now) }
        return verdict
    }

    /// Gives `name` back to the joined hunt's organiser's `key` when it was first met under another key at or after
    /// `joined`, the moment the join file introduced the organiser's key (docs/SECURITY.md "Round five (issue 61)"):
    /// a copy of the organiser's message re-signed by another key, met first, does not keep the organiser's name.
    /// Returns the entry replaced; nil, changing nothing, for a name known from before the join or not known at all.
    package mutating func reclaim(_ name: String, forOrganiser key: String, joined: Date, at now: Date) -> Entry? {
        guard let entry = senders[name], entry.key != key, entry.since >= joined else { return nil }
        senders[name] = Entry(key: key, since: now)
        return entry
    }

    /// What `meet` would say, recording nothing. A name recorded before lookalikes were flagged is still flagged
    /// when an earlier-known name it reads as has another key.
    package func verdict(_ name: String, key: String) -> Verdict {
        if let entry = senders[name], entry.key != key { return .changed(previous: entry) }
        let since = senders[name]?.since ?? .distantFuture
        let skeleton = Self.skeleton(name)
        if let (other, entry) = senders.filter({ $0.key != name && $0.value.key != key && $0.value.since <= since })
            .sorted(by: { ($0.value.since, $0.key) < ($1.value.since, $1.key) })
            .first(where: { Self.skeleton($0.key) == skeleton })
        {
            return .lookalike(of: other, known: entry)
        }
        return senders[name] == nil ? .new : .known
    }

    /// What a name reads as, its confusable skeleton (in the spirit of Unicode's UTS #39): compatibility-normalised
    /// (NFKC: fullwidth and mathematical letters, ligatures), invisible characters dropped (format characters such
    /// as zero-width spaces and bidirectional controls, and every other default-ignorable one), every run of spaces
    /// of any kind (no-break, thin, ideographic…) one space with none at either end, and the letters of other
    /// scripts that pass for Latin ones (Cyrillic, Ukrainian, Greek, Armenian, Cherokee), with I, |, 1 and 0, folded
    /// onto the Latin letter they pass for; "rn" reads as "m" and "vv" as "w". Case is kept: "organiser" does not
    /// pass for "Organiser". Two names with one skeleton are lookalikes (docs/SECURITY.md "Known senders").
    package static func skeleton(_ name: String) -> String {
        var folded = ""
        var space = false
        for scalar in name.compatibilityComposed.unicodeScalars {
            if isInvisible(scalar) { continue }
            if scalar.properties.isWhitespace || scalar.value == 0x2800 {
                space = !folded.isEmpty
                continue
            }
            if space { folded.append(" ") }
            space = false
            if let latin = confusables[scalar] { folded += latin } else { folded.unicodeScalars.append(scalar) }
        }
        // A Cyrillic е with a combining acute becomes "e" and the accent: composed again, it is the Latin é.
        return folded.canonicallyComposed
            .replacing("rn", with: "m").replacing("vv", with: "w")
    }

    /// The name with what makes it a lookalike written out: other scripts' lookalike letters, invisible characters and
    /// spaces other than U+0020 as \u{…}, the rest as `TerminalText.escaped` shows it.
    package static func revealed(_ name: String) -> String {
        var shown = ""
        for scalar in name.unicodeScalars {
            let hidden =
                scalar.value > 0x7F
                && (confusables[scalar] != nil || isInvisible(scalar)
                    || scalar.properties.isWhitespace || scalar.value == 0x2800)
            shown += hidden ? "\\u{" + String(scalar.value, radix: 16) + "}" : TerminalText.escaped(String(scalar))
        }
        return shown
    }

    /// For each name that reads as an earlier one of `names` (in their order) but is not it, that earlier name: the
    /// board's teams each have their own key, so a lookalike there is always another key's.
    package static func lookalikes(among names: [String]) -> [String: String] {
        var first: [String: String] = [:]
        var found: [String: String] = [:]
        for name in names {
            let skeleton = skeleton(name)
            if let earlier = first[skeleton], earlier != name {
                found[name] = earlier
            } else if first[skeleton] == nil {
                first[skeleton] = name
            }
        }
        return found
    }

    /// A character that shows nothing: a format character (zero-width space and joiners, word joiner, soft hyphen,
    /// bidirectional controls, the byte-order mark) or another default-ignorable one (combining grapheme joiner,
    /// variation selectors, Hangul fillers, Mongolian vowel separator).
    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .format || scalar.properties.isDefaultIgnorableCodePoint
    }

    /// Letters of other scripts (and Latin signs and digits) that read as a Latin letter, each case on its own:
    /// a capital I, a vertical bar, a digit 1 and a small l are one; a capital O and a digit 0.
    private static let confusables: [Unicode.Scalar: String] = {
        let pairs: [(String, String)] = [
            // Cyrillic, Ukrainian and other Cyrillic-script letters: capitals, then small letters.
            ("А", "A"), ("В", "B"), ("Е", "E"), ("Ё", "Ë"), ("Ѕ", "S"), ("І", "l"), ("Ї", "Ï"), ("Ј", "J"), ("К", "K"),
            ("М", "M"), ("Н", "H"), ("О", "O"), ("Р", "P"), ("С", "C"), ("Т", "T"), ("У", "Y"), ("Ү", "Y"), ("Х", "X"),
            ("Ѵ", "V"), ("Ԛ", "Q"), ("Ԝ", "W"), ("Ӏ", "l"),
            ("а", "a"), ("е", "e"), ("ё", "ë"), ("ѕ", "s"), ("і", "i"), ("ї", "ï"), ("ј", "j"), ("о", "o"), ("р", "p"),
            ("с", "c"), ("у", "y"), ("ү", "y"), ("х", "x"), ("ѵ", "v"), ("ԁ", "d"), ("ԛ", "q"), ("ԝ", "w"), ("һ", "h"),
            ("ӏ", "l"),
            // Greek.
            ("Α", "A"), ("Β", "B"), ("Ε", "E"), ("Ζ", "Z"), ("Η", "H"), ("Ι", "l"), ("Κ", "K"), ("Μ", "M"), ("Ν", "N"),
            ("Ο", "O"), ("Ρ", "P"), ("Τ", "T"), ("Υ", "Y"), ("Χ", "X"), ("Ϲ", "C"), ("Ϳ", "J"),
            ("α", "a"), ("γ", "y"), ("ι", "i"), ("ν", "v"), ("ο", "o"), ("ρ", "p"), ("υ", "u"), ("ϲ", "c"), ("ϳ", "j"),
            // Armenian.
            ("Լ", "L"), ("Օ", "O"), ("Ս", "U"), ("Տ", "S"), ("հ", "h"), ("ո", "n"), ("ս", "u"), ("ց", "g"), ("օ", "o"),
            // Cherokee capitals.
            ("Ꭺ", "A"), ("Ᏼ", "B"), ("Ꮯ", "C"), ("Ꭼ", "E"), ("Ꮐ", "G"), ("Ꮋ", "H"), ("Ꭻ", "J"), ("Ꮶ", "K"), ("Ꮮ", "L"),
            ("Ꮇ", "M"), ("Ꮲ", "P"), ("Ꮪ", "S"), ("Ꭲ", "T"), ("Ꮩ", "V"), ("Ꮃ", "W"), ("Ꮓ", "Z"),
            // Latin signs and digits.
            ("I", "l"), ("|", "l"), ("1", "l"), ("ǀ", "l"), ("ı", "i"), ("ɑ", "a"), ("ɡ", "g"), ("0", "O"),
        ]
        return Dictionary(uniqueKeysWithValues: pairs.map { (Unicode.Scalar($0.0.unicodeScalars.first!.value)!, $0.1) })
    }()

    /// Makes `key` the one known for `name` (a sender who really changed keys).
    package mutating func trust(_ name: String, key: String, at now: Date) {
        senders[name] = Entry(key: key, since: now)
    }

    /// Forgets a name; returns whether it was known. The next message under it is met anew.
    @discardableResult
    package mutating func forget(_ name: String) -> Bool { senders.removeValue(forKey: name) != nil }

    /// The words a flagged sender gets in `list`, `read` and `watch`.
    package static func changedWords(_ name: String) -> String {
        "\(TerminalText.escaped(name)) \u{2014} not the key you had before"
    }

    /// The words a lookalike sender gets in `list`, `read`, `watch` and the board: the name is shown escaped, so an
    /// invisible or no-break space is visible.
    package static func lookalikeWords(_ name: String, of known: String) -> String {
        "\(revealed(name)) \u{2014} a lookalike of \(TerminalText.escaped(known)), a sender you know under another key"
    }
}
