/// The offset a zone's clocks keep for a while: seconds east of UTC, whether it is summer time, and its letters.
package struct ZoneOffset: Sendable, Hashable {
    /// Seconds east of UTC.
    package var offset: Int
    package var isDaylight: Bool
    /// "CET", "CEST", or "+0530" where the database has no letters.
    package var abbreviation: String

    package init(offset: Int, isDaylight: Bool = false, abbreviation: String) {
        self.offset = offset
        self.isDaylight = isDaylight
        self.abbreviation = abbreviation
    }

    /// A fixed offset named as the tz database names offsets without letters: "+02", "+0530", "-0930".
    package init(fixed offset: Int) {
        let minutes = abs(offset) / 60
        let sign = offset < 0 ? "-" : "+"
        let name =
            minutes % 60 == 0
            ? sign + String(printf: "%02d", minutes / 60)
            : sign + String(printf: "%02d%02d", minutes / 60, minutes % 60)
        self.init(offset: offset, abbreviation: offset == 0 ? "UTC" : name)
    }
}

/// The offsets of a zone through time, as a TZif file gives them (RFC 8536): the instants its clocks changed,
/// the offset each change brought, and a POSIX rule for instants after the last change.
package struct ZoneRules: Sendable, Hashable {
    /// Instants (seconds since 1970, UTC) the clocks changed at, ascending.
    package var transitions: [Int64]
    /// For each transition, the index in `offsets` of the offset it brought.
    package var indices: [Int]
    package var offsets: [ZoneOffset]
    /// The rule for instants at or after the last transition (the TZif footer); nil to keep the last offset.
    package var footer: PosixZoneRule?

    package init(transitions: [Int64], indices: [Int], offsets: [ZoneOffset], footer: PosixZoneRule?) {
        self.transitions = transitions
        self.indices = indices
        self.offsets = offsets
        self.footer = footer
    }

    /// One offset for ever.
    package init(fixed offset: ZoneOffset) {
        self.init(transitions: [], indices: [], offsets: [offset], footer: nil)
    }

    /// A POSIX `TZ` rule for all time ("CET-1CEST,M3.5.0,M10.5.0/3").
    package init(rule: PosixZoneRule) {
        self.init(transitions: [], indices: [], offsets: [rule.standard], footer: rule)
    }

    /// The offset in force at `instant` (seconds since 1970, UTC).
    package func offset(at instant: Int64) -> ZoneOffset {
        guard let first = transitions.first, instant >= first else {
            if transitions.isEmpty, let footer { return footer.offset(at: instant) }
            // Before the first change: the first offset that is not summer time, as the C library and Python take.
            return offsets.first { !$0.isDaylight } ?? offsets[0]
        }
        if instant >= transitions[transitions.count - 1], let footer { return footer.offset(at: instant) }
        var low = 0
        var high = transitions.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if transitions[middle] <= instant { low = middle } else { high = middle }
        }
        return offsets[indices[low]]
    }
}
