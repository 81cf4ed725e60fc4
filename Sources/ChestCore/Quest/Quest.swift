/// A quest file as written by an organiser (docs/QUEST.md): one or several messages, each with its pages and their
/// lock sets, before IDs are chosen and chains resolved. `QuestParser` reads it.
public struct Quest: Hashable, Sendable {
    /// The default sender of every message; `nil` leaves it to the name setting.
    public var from: String?
    /// `search-area:` before the first message: where every sealed place of the quest lies (docs/QUEST.md).
    public var searchArea: SearchArea?
    public var messages: [QuestMessage] = []

    public init(from: String? = nil, messages: [QuestMessage] = []) {
        self.from = from
        self.messages = messages
    }
}

/// One message of a quest.
public struct QuestMessage: Hashable, Sendable {
    /// Letters, digits, `-` and `_`: what `after` names and the message file is called.
    public var name: String
    /// The line of its `message:`.
    public var line: Int
    public var title: String?
    public var from: String?
    /// `search-area:` in the message: where its sealed places lie, instead of the quest's.
    public var searchArea: SearchArea?
    /// `after:` lines: every page of the message waits for these.
    public var after: [QuestLock] = []
    public var pages: [QuestPage] = []

    public init(name: String, line: Int) {
        self.name = name
        self.line = line
    }
}

/// One page of a quest message.
public struct QuestPage: Hashable, Sendable {
    public var text: String
    public var line: Int
    public var setA: [QuestLock] = []
    public var setB: [QuestLock] = []
    public var inSetB = false
    /// `attach:` lines: files the page carries, by path (relative to the quest file until `QuestFile` resolves it).
    public var attachments: [QuestAttachment] = []
    /// `hint:` lines with their `hint-after:` and `hint-cost:`, in order (docs/QUEST.md "Hints").
    public var hints: [HintDraft] = []
    /// `question:` and `points:` (docs/QUEST.md "Questions and answers").
    public var question: String?
    public var points: Int?

    public init(text: String, line: Int) {
        self.text = text
        self.line = line
    }
}

/// A file a quest page carries (`attach: FILE`), with its line.
public struct QuestAttachment: Hashable, Sendable {
    public var path: String
    public var line: Int

    public init(path: String, line: Int) {
        self.path = path
        self.line = line
    }
}

/// A lock as the quest wrote it, with its line.
public struct QuestLock: Hashable, Sendable {
    public enum Spec: Hashable, Sendable {
        /// Anything `compose --lock` takes (with waypoints already looked up).
        case spec(LockSpec)
        /// `after=NAME#PAGE`; `nil` names the message itself (`after=#PAGE`).
        case after(message: String?, page: Int)
    }

    public var spec: Spec
    public var line: Int

    public init(_ spec: Spec, line: Int) {
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
public struct QuestError: Error, Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var field: String
    public var problem: String

    public init(line: Int, field: String, _ problem: String) {
        self.line = line
        self.field = field
        self.problem = problem
    }

    /// "12: lock: …"; the caller puts the file name in front.
    public var description: String { "\(line): \(field): \(problem)" }
}

/// Every fault of a quest file, in the order found, up to `limit`: a quest is fixed in one pass, not one build a
/// mistake.
public struct QuestErrors: Error, Hashable, Sendable, CustomStringConvertible {
    public var errors: [QuestError] = []
    /// More mistakes were found than are reported.
    public var truncated = false

    /// The most a run reports; past these the reading stops.
    public static let limit = 20

    public init(_ errors: [QuestError] = []) {
        self.errors = Array(errors.prefix(Self.limit))
        truncated = errors.count > Self.limit
    }

    mutating func append(_ error: QuestError) {
        if errors.count < Self.limit { errors.append(error) } else { truncated = true }
    }

    var isFull: Bool { errors.count >= Self.limit }

    /// One line a fault ("12: lock: …"), each prefixed with `prefix` (the quest file's name and a colon).
    public func lines(prefix: String = "") -> [String] {
        errors.map { prefix + $0.description }
            + (truncated || isFull ? ["\(prefix)stopped after \(Self.limit) mistakes; fix these and run again"] : [])
    }

    public var description: String { lines().joined(separator: "\n") }
}

extension LockSpec {
    /// The kind of lock this spec makes.
    public var kind: LockKind {
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
