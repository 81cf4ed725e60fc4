import ChestArguments
import ChestCore
import ChestIO
import Foundation

/// `chest compose`: the options are read in order, because each `--lock` belongs to the page and set before it.
struct ComposeCommand: ChestCommand, Equatable {
    static let name = "compose"
    static let abstract = "write a locked message file; prints its ID"
    static let synopses = ["-o FILE --title TITLE [--from NAME] --page TEXT [--lock SPEC]... [--or --lock SPEC...] ..."]
    static let parameters: [Parameter] = [
        .option("--output", "-o", value: "FILE", help: "the message file to write", completion: .files(extension: "locked")),
        .option("--title", value: "TITLE", help: "the message's title"),
        .option("--from", value: "NAME", help: "the sender's name (default: the name setting)"),
        .option("--page", value: "TEXT", help: "starts the next page, with this text", repeatable: true),
        .option("--lock", value: "SPEC", help: "adds a lock to the page's current set", repeatable: true,
                completion: .keyValue(keys: LockKind.allCases.map(\.rawValue),
                                      values: ["location": ["here/30m"], "weather": WeatherCondition.allCases.map(\.rawValue)])),
        .flag("--or", help: "switches the page to set B", repeatable: true),
        .option("--require", value: "hardware", help: "location and altitude locks count only fixes from a hardware receiver",
                completion: .words(["hardware"])),
    ]
    static let discussion = """
        Writes a sealed message file with 1 to 5 pages. After each --page, every --lock adds a lock to
        set A; --or switches to set B of the same page. A page opens when every lock of A holds, or every
        lock of B. A page without locks is open from the start. Prints the message ID.

        lock specs:
        \(LockSpec.forms.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))

        example:
          chest compose -o oak.locked --title "Birthday" \\
            --page "Under the old oak." --lock location=here/30m --or --lock pin=4821 \\
            --page "Happy birthday!" --lock time=2026-12-01T09:00:00Z
        """

    var draft = ComposeDraft()

    init(_ values: ParsedValues) throws(UsageError) {
        try self.init(values, timeZone: .current)
    }

    /// Times without a zone are read in `timeZone`.
    init(_ values: ParsedValues, timeZone: TimeZone) throws(UsageError) {
        draft.output = values.value("--output")
        draft.title = values.value("--title")
        draft.from = values.value("--from")
        if let requirement = values.value("--require") {
            guard requirement == "hardware" else { throw UsageError("--require takes \"hardware\", not \"\(requirement)\"") }
            draft.requiresHardware = true
        }
        for occurrence in values.occurrences {
            switch (occurrence.name, occurrence.value) {
            case let ("--page", text?): try addPage(text)
            case let ("--lock", spec?): try addLock(spec, timeZone: timeZone)
            case ("--or", _): try switchToSetB()
            default: break
            }
        }
        try check()
    }

    private mutating func addPage(_ text: String) throws(UsageError) {
        guard draft.pages.count < Message.maximumPages else {
            throw UsageError("a message has at most \(Message.maximumPages) pages")
        }
        draft.pages.append(PageDraft(text: text))
    }

    private mutating func addLock(_ value: String, timeZone: TimeZone) throws(UsageError) {
        guard let index = draft.pages.indices.last else {
            throw UsageError("--lock \(value) comes before any --page; write --page TEXT first")
        }
        let spec: LockSpec
        do {
            spec = try LockSpec.parse(value, timeZone: timeZone)
        } catch {
            throw UsageError(error.description)
        }
        if draft.pages[index].inSetB { draft.pages[index].setB.append(spec) } else { draft.pages[index].setA.append(spec) }
    }

    private mutating func switchToSetB() throws(UsageError) {
        guard let index = draft.pages.indices.last else { throw UsageError("--or comes before any --page") }
        guard !draft.pages[index].inSetB else {
            throw UsageError("page \(index + 1) already has its --or; a page has two lock sets, A and B")
        }
        guard !draft.pages[index].setA.isEmpty else {
            throw UsageError("--or on page \(index + 1) follows no --lock; give set A a lock first")
        }
        draft.pages[index].inSetB = true
    }

    private func check() throws(UsageError) {
        guard draft.output != nil else { throw UsageError("compose needs -o FILE, the message file to write") }
        guard let title = draft.title, !title.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw UsageError("compose needs --title TITLE")
        }
        guard !draft.pages.isEmpty else { throw UsageError("compose needs at least one --page TEXT") }
        for (index, page) in draft.pages.enumerated() {
            for (name, specs) in [("A", page.setA), ("B", page.setB)] {
                var kinds: Set<LockKind> = []
                for spec in specs where !kinds.insert(spec.kind).inserted {
                    throw UsageError("page \(index + 1) has two \(spec.kind.rawValue) locks in set \(name); use --or for an alternative")
                }
            }
        }
    }

    func run(settings: Settings) throws {
        try Composer(settings: settings).compose(draft)
    }
}

/// What `compose` was asked to write, before PINs are hashed and `here` is resolved.
struct ComposeDraft: Equatable {
    var output: String?
    var title: String?
    var from: String?
    var pages: [PageDraft] = []
    /// `--require hardware`.
    var requiresHardware = false
}

struct PageDraft: Equatable {
    var text: String
    var setA: [LockSpec] = []
    var setB: [LockSpec] = []
    var inSetB = false
}

extension LockSpec {
    var kind: LockKind {
        switch self {
        case let .lock(lock): lock.kind
        case .pin: .pin
        case .locationHere: .location
        case .altitudeHere: .altitude
        }
    }
}
