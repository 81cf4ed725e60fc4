import struct FoundationEssentials.Date

/// The kinds of lock (docs/DESIGN.md "Messages and locks", plus `after` for chains, docs/QUEST.md "Chains").
/// A lock set holds at most one of each.
package enum LockKind: String, CaseIterable, Hashable, Sendable, Codable {
    case location, time, pin, weather, temperature, altitude, after, release, answer
}

/// A closed interval of measurements, `min...max`, with `min <= max`.
package struct Bounds: Hashable, Sendable, Codable, CustomStringConvertible {
    package var min: Double
    package var max: Double

    package init(min: Double, max: Double) {
        self.min = min
        self.max = max
    }

    package func contains(_ value: Double) -> Bool { value >= min && value <= max }

    package var description: String { "\(min.compact)..\(max.compact)" }
}

/// One condition a page waits for.
package enum Lock: Hashable, Sendable {
    /// The reader stands within `radius` metres of `center`.
    case location(center: Coordinate, radius: Double)
    /// The trusted time is at or after this instant.
    case time(Date)
    /// GPS time from a `hardware` receiver is at or after this instant (`time=…,gps`).
    case gpsTime(Date)
    /// The reader enters the PIN whose Argon2id hash (libsodium's encoded form) this is.
    case pin(hash: String)
    /// The current weather at the reader's position is this.
    case weather(WeatherCondition)
    /// The current temperature at the reader's position is inside these bounds, in °C.
    case temperature(Bounds)
    /// The reader's 3D fix is inside these bounds, in metres above mean sea level.
    case altitude(Bounds)
    /// That page of that message (this one, or another) is open in the reader's chest.
    case after(PageLink)
    /// Format 2: a location whose point is inside the page's ciphertext; the grid names the cell that derives
    /// its key (docs/FORMAT.md "Sealed locations"). Out of line: a grid is 72 bytes, and every lock would be that
    /// size rather than 32 (docs/BENCHMARKS.md "Memory").
    indirect case sealedLocation(CellGrid)
    /// Format 2: a PIN that is part of the set's key, with no hash stored anywhere.
    case sealedPIN
    /// Format 2: a key the hunt's organiser publishes when they choose (`chest hunt release NAME`), part of the
    /// set's key (docs/HUNTS.md "Releases").
    case release(String)
    /// Formats 2 and 3: an answer to the page's question, part of the set's key; the file holds no trace of the
    /// answers but the page key wrapped under each (docs/FORMAT.md "Answer locks").
    case answer

    package var kind: LockKind {
        switch self {
        case .location, .sealedLocation: .location
        case .time, .gpsTime: .time
        case .pin, .sealedPIN: .pin
        case .weather: .weather
        case .temperature: .temperature
        case .altitude: .altitude
        case .after: .after
        case .release: .release
        case .answer: .answer
        }
    }

    /// Whether the lock is part of its set's key (format 2): a sealed location, a sealed PIN, a release or an answer.
    package var isSecret: Bool {
        switch self {
        case .sealedLocation, .sealedPIN, .release, .answer: true
        default: false
        }
    }

    /// A release's name: a letter or digit, then up to 31 letters, digits, `-` or `_` (it is an MQTT topic level).
    package static func isValidReleaseName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...32).contains(bytes.count), bytes[0] != UInt8(ascii: "-"), bytes[0] != UInt8(ascii: "_") else {
            return false
        }
        return bytes.allSatisfy {
            (0x30...0x39).contains($0) || (0x41...0x5a).contains($0) || (0x61...0x7a).contains($0)
                || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")
        }
    }

    /// The smallest radius `compose` accepts, in metres (a consumer receiver cannot do better).
    package static let minimumRadius = 10.0

    /// The narrowest altitude range `compose` accepts, in metres: a consumer receiver's altitude wanders by
    /// more than this between fixes (docs/DESIGN.md "Lock rules").
    package static let minimumAltitudeSpan = 20.0
}

/// Which of a page's two alternatives.
package enum LockSetName: String, CaseIterable, Hashable, Sendable, Codable {
    case a = "A", b = "B"
}

/// One page of a message: text and two alternative lock sets.
package struct Page: Hashable, Sendable {
    package var text: String
    package var setA: [Lock]
    package var setB: [Lock]
    /// Format 2: the encrypted text and the page key's slots; `text` is then empty.
    package var sealed: SealedPage?
    /// Formats 2 and 3: the files the page carries, sealed (docs/FORMAT.md "Attachments").
    package var attachments: SealedAttachments? {
        get { extras.attachments }
        set { extras.attachments = newValue }
    }
    /// The organiser's name for a set's place whose point is in the clear (docs/FORMAT.md "Place labels").
    package var labels: [LockSetName: String] {
        get {
            var labels: [LockSetName: String] = [:]
            labels[.a] = labelA
            labels[.b] = extras.labelB
            return labels
        }
        set {
            labelA = newValue[.a]
            extras.labelB = newValue[.b]
        }
    }
    /// Formats 2 and 3: the page's hints, in order (docs/FORMAT.md "Hints").
    package var hints: [PageHint] {
        get { extras.hints }
        set { extras.hints = newValue }
    }
    /// The page's question, in the clear: shown before the page opens (docs/FORMAT.md "Questions, answer locks and points").
    package var question: String? {
        get { extras.question }
        set { extras.question = newValue }
    }
    /// What the hunt's board credits for the page's proven opening; nil means the default, 1 (docs/FORMAT.md
    /// "Questions, answer locks and points").
    package var points: Int? {
        get { extras.points }
        set { extras.points = newValue }
    }

    /// Set A's label, in line: most pages of a course have one (a visible place's name, usually short enough for
    /// a string's 15 bytes in line), and in the box below it cost each such page the box, 87 bytes with the
    /// allocator's, for 16 bytes here (docs/BENCHMARKS.md "Memory").
    private var labelA: String?

    /// What few pages have, out of line: 8 bytes a page instead of 64 (docs/BENCHMARKS.md "Memory").
    private struct Extras: Hashable, Sendable {
        var attachments: SealedAttachments?
        var labelB: String?
        var hints: [PageHint] = []
        var question: String?
        var points: Int?
    }

    private var extrasBox: Boxed<Extras>?

    private var extras: Extras {
        get { extrasBox?.value ?? Extras() }
        set { extrasBox = .unlessDefault(newValue, Extras()) }
    }

    package init(text: String, setA: [Lock] = [], setB: [Lock] = [], sealed: SealedPage? = nil) {
        self.text = text
        self.setA = setA
        self.setB = setB
        self.sealed = sealed
    }

    package subscript(set: LockSetName) -> [Lock] {
        switch set {
        case .a: setA
        case .b: setB
        }
    }

    /// A page with no locks at all is open from the start.
    package var isUnlocked: Bool { setA.isEmpty && setB.isEmpty }
}

extension Double {
    /// "30" rather than "30.0"; "2.5" stays "2.5".
    var compact: String {
        rounded() == self && abs(self) < 1e15 ? String(Int64(self)) : String(self)
    }
}
