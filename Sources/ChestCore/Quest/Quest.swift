/// A quest file as written by an organiser (docs/QUEST.md): one or several messages, each with its pages and their
/// lock sets, before IDs are chosen and chains resolved. `QuestParser` reads it.
package struct Quest: Hashable, Sendable {
    /// The default sender of every message; `nil` leaves it to the name setting.
    package var from: String?
    /// `search-area:` before the first message: where every sealed place of the quest lies (docs/QUEST.md).
    package var searchArea: SearchArea?
    /// `order:` before the first message: the order of every message that says none (docs/QUEST.md "Order").
    package var order: QuestOrder?
    package var messages: [QuestMessage] = []

    package init(from: String? = nil, messages: [QuestMessage] = []) {
        self.from = from
        self.messages = messages
    }
}

/// One message of a quest.
package struct QuestMessage: Hashable, Sendable {
    /// Letters, digits, `-` and `_`: what `after` names and the message file is called.
    package var name: String
    /// The line of its `message:`.
    package var line: Int
    package var title: String?
    package var from: String?
    /// `search-area:` in the message: where its sealed places lie, instead of the quest's.
    package var searchArea: SearchArea?
    /// `after:` lines: every page of the message waits for these.
    package var after: [QuestLock] = []
    /// `order:` in the message: whether its pages wait each for the one before (docs/QUEST.md "Order").
    package var order: QuestOrder?
    package var pages: [QuestPage] = []

    package init(name: String, line: Int) {
        self.name = name
        self.line = line
    }
}

/// The order a message's pages open in (docs/QUEST.md "Order"): `any`, each page as its own locks hold, or
/// `sequence`, each page after the one before it as well.
package enum QuestOrder: String, Hashable, Sendable, CaseIterable {
    case any
    case sequence

    /// How preview, simulate and compose say it.
    package var wording: String {
        switch self {
        case .any: "any order (each page opens when its own locks hold)"
        case .sequence: "sequence (each page also waits for the one before)"
        }
    }
}

/// One page of a quest message.
package struct QuestPage: Hashable, Sendable {
    package var text: String
    package var line: Int
    package var setA: [QuestLock] = []
    package var setB: [QuestLock] = []
    package var inSetB = false
    /// `attach:` lines: files the page carries, by path (relative to the quest file until `QuestFile` resolves it).
    package var attachments: [QuestAttachment] = []
    /// `hint:` lines with their `hint-after:` and `hint-cost:`, in order (docs/QUEST.md "Hints").
    package var hints: [HintDraft] = []
    /// `question:` and `points:` (docs/QUEST.md "Questions and answers").
    package var question: String?
    package var points: Int?
    /// `finish: yes`: a finish page (docs/HUNTS.md "A finish").
    package var finish = false
    /// `mission: yes`: a page the organiser judges (docs/HUNTS.md "Missions").
    package var mission = false
    /// `waypoint:`: what the page's place is called where it came from, for `export` (docs/QUEST.md "Names on the
    /// way back"); never in the message.
    package var waypoint: QuestWaypoint?

    package init(text: String, line: Int) {
        self.text = text
        self.line = line
    }
}

/// A page's `waypoint: NAME (TYPE)`: its place's name in the file it came from (`GC3A5N1`, `FN3A5N1`) and that
/// file's type of it (`Geocache|Multi-cache`, `Waypoint|Final Location`), for `export --gpx --sealed`.
package struct QuestWaypoint: Hashable, Sendable {
    package var name: String
    package var type: String?

    package init(name: String, type: String? = nil) {
        self.name = name
        self.type = type
    }

    /// The longest name: what GPS receivers and geocaching tools keep of a waypoint's name and more.
    package static let maximumNameLength = 100

    /// `NAME` or `NAME (TYPE)`, TYPE a GPX `<type>` with its `|`; nil when there is no name or it is too long.
    package init?(parsing value: String) {
        var name = Substring(value)
        var type: String?
        if value.hasSuffix(")"), let open = value.lastIndex(of: "("),
            value[open...].contains("|")
        {
            type = String(value[value.index(after: open)..<value.index(before: value.endIndex)]).trimmingSpaces()
            name = value[..<open]
        }
        let trimmed = name.trimmingSpaces()
        guard !trimmed.isEmpty, trimmed.count <= Self.maximumNameLength else { return nil }
        self.init(name: trimmed, type: type)
    }

    /// As the quest writes it.
    package var written: String { name + (type.map { " (\($0))" } ?? "") }
}

/// A file a quest page carries (`attach: FILE`), with its line.
package struct QuestAttachment: Hashable, Sendable {
    package var path: String
    package var line: Int

    package init(path: String, line: Int) {
        self.path = path
        self.line = line
    }
}

/// A lock as the quest wrote it, with its line.
package struct QuestLock: Hashable, Sendable {
    package enum Spec: Hashable, Sendable {
        /// Anything `compose --lock` takes (with waypoints already looked up).
        case spec(LockSpec)
        /// `after=NAME#PAGE`; `nil` names the message itself (`after=#PAGE`).
        case after(message: String?, page: Int)
    }

    package var spec: Spec
    package var line: Int

    package init(_ spec: Spec, line: Int) {
        self.spec = spec
        self.line = line
    }

    var kind: LockKind {
        switch spec {
        case let .spec(spec): spec.kind
        case .after: .after
        }
    }
}

/// A fault in a quest file: its line, the field and what is wrong.
package struct QuestError: Error, Hashable, Sendable, CustomStringConvertible {
    package var line: Int
    package var field: String
    package var problem: String

    package init(line: Int, field: String, _ problem: String) {
        self.line = line
        self.field = field
        self.problem = problem
    }

    /// "12: lock: …"; the caller puts the file name in front.
    package var description: String { "\(line): \(field): \(problem)" }
}

/// Every fault of a quest file, in the order found, up to `limit`: a quest is fixed in one pass, not one build a
/// mistake.
package struct QuestErrors: Error, Hashable, Sendable, CustomStringConvertible {
    package var errors: [QuestError] = []
    /// More mistakes were found than are reported.
    package var truncated = false

    /// The most a run reports; past these the reading stops.
    package static let limit = 20

    package init(_ errors: [QuestError] = []) {
        self.errors = Array(errors.prefix(Self.limit))
        truncated = errors.count > Self.limit
    }

    mutating func append(_ error: QuestError) {
        if errors.count < Self.limit { errors.append(error) } else { truncated = true }
    }

    var isFull: Bool { errors.count >= Self.limit }

    /// One line a fault ("12: lock: …"), each prefixed with `prefix` (the quest file's name and a colon).
    package func lines(prefix: String = "") -> [String] {
        errors.map { prefix + $0.description }
            + (truncated || isFull ? ["\(prefix)stopped after \(Self.limit) mistakes; fix these and run again"] : [])
    }

    package var description: String { lines().joined(separator: "\n") }
}

extension LockSpec {
    /// The kind of lock this spec makes.
    package var kind: LockKind {
        switch self {
        case let .lock(lock): lock.kind
        case .pin: .pin
        case .locationHere: .location
        case .altitudeHere: .altitude
        case .answer: .answer
        case let .visible(inner, _): inner.kind
        }
    }
}
