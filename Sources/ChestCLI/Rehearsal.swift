import ChestCore
import ChestIO
import ChestSeal
import FoundationEssentials
import Glibc

/// The messages an organiser checks before sending them: a quest's (not yet built) or message files'
/// (docs/QUEST.md). `preview` and `simulate` read them; nothing is written.
struct Rehearsal {
    /// One message as the reader will get it.
    struct Item {
        /// The quest's name for it, or the file it came from.
        var name: String
        var draft: QuestDraft
        /// The decoded file, for a message file; `nil` for a quest.
        var file: Message?
        /// What the seal says, for a message file.
        var seal: String?
    }

    let items: [Item]
    /// The quest's recorded IDs are not the ones a build will choose (without --keep-ids).
    let fromQuest: Bool
    /// Each message ID's first item's name: every chain of a course of 20,000 messages is named by a look-up, not a
    /// search (issue 61).
    private let names: [MessageID: String]

    /// A quest file (or a geocaching GPX, as `course` says), or one or more `*.locked` files.
    init(paths: [String], course: CourseOptions = CourseOptions()) throws {
        if paths.count == 1, !paths[0].hasSuffix("." + MessageFile.fileExtension) {
            let file = try QuestFile(paths[0], course: course)
            let recorded = file.recordedIDs()
            let ids = file.ids(keep: true).merging(recorded) { $1 }
            items = file.quest.drafts(ids: ids).map { Item(name: $0.name, draft: $0, file: nil, seal: nil) }
            fromQuest = true
            names = Self.names(items)
            return
        }
        if !course.isEmpty {
            throw ChestError("\(course.written) sets the course of a geocaching GPX, not of message files")
        }
        items = try paths.map { path in
            let message: Message
            do {
                message = try MessageFile.decode(MessageFileReader.read(path: path))
            } catch {
                throw ChestError("\(path): \(error)")
            }
            var seal = "sealed; the signature matches"
            do { try Sealer.verify(message) } catch { seal = "\(error)" }
            let draft = QuestDraft(
                name: baseName(path), id: message.id, title: message.title, from: message.from,
                pages: message.pages.map {
                    QuestDraft.Page(text: $0.text, setA: $0.setA.map(LockSpec.lock), setB: $0.setB.map(LockSpec.lock))
                })
            return Item(name: baseName(path), draft: draft, file: message, seal: seal)
        }
        fromQuest = false
        names = Self.names(items)
    }

    private static func names(_ items: [Item]) -> [MessageID: String] {
        Dictionary(items.map { ($0.draft.id, $0.name) }, uniquingKeysWith: { first, _ in first })
    }

    /// The quest name (or file name) of a message ID, for chains.
    func name(of id: MessageID) -> String? { names[id] }

    /// The messages as the engine will hold them. A quest's PINs are kept as their digits (`simulate` enters
    /// none); `here` cannot be rehearsed, since it is chestd's fix when the quest is built.
    func messages(settings: Settings) throws -> [Message] {
        try messages(settings: settings, answers: []).messages
    }

    /// The messages, an answer lock that one of `answers` opens made a time lock long past, so that it holds at the
    /// first point of the track; with the sets so opened, by "ID/PAGE/SET".
    func messages(settings: Settings, answers: [GivenAnswer]) throws -> (messages: [Message], answered: Set<String>) {
        var answered: Set<String> = []
        let messages = try items.map { item in
            if let file = item.file { return file }
            var pages: [Page] = []
            for (index, page) in item.draft.pages.enumerated() {
                func locks(_ specs: [LockSpec]) throws -> [Lock] {
                    try specs.map { spec in
                        switch spec {
                        case let .lock(lock): return lock
                        // The engine is rehearsed with the point, sealed or not: the rule is the same.
                        case let .visible(inner, _): return try locks([inner])[0]
                        case let .pin(digits): return .pin(hash: digits)
                        case let .answer(text):
                            let accepted = Set(AnswerText.alternatives(text))
                            guard
                                answers.contains(where: {
                                    $0.opens(item.name, page: index + 1) && accepted.contains($0.text)
                                })
                            else {
                                return .answer
                            }
                            return .time(Date(timeIntervalSince1970: 0))
                        case .locationHere, .altitudeHere:
                            throw ChestError(
                                "\(item.name), page \(index + 1): a here lock takes chestd's fix when the quest is built; "
                                    + "build the quest first and rehearse the message files")
                        }
                    }
                }
                // A set with its own time lock keeps it and loses the answered lock: a set holds one lock of a kind.
                func answeredLocks(_ specs: [LockSpec]) throws -> [Lock] {
                    let built = try locks(specs)
                    guard built.count(where: { $0.kind == .time }) > 1 else { return built }
                    return built.filter { $0 != .time(Date(timeIntervalSince1970: 0)) }
                }
                var rehearsed = Page(
                    text: page.text, setA: try answeredLocks(page.setA), setB: try answeredLocks(page.setB))
                (rehearsed.question, rehearsed.points) = (page.question, page.points)
                for (set, specs, built) in [
                    (LockSetName.a, page.setA, rehearsed.setA), (.b, page.setB, rehearsed.setB),
                ]
                where specs.contains(where: { $0.kind == .answer }) && !built.contains(.answer)
                    && !specs.contains(where: { $0.kind == .time })
                {
                    answered.insert("\(item.draft.id)/\(index + 1)/\(set.rawValue)")
                }
                pages.append(rehearsed)
            }
            return Message(
                id: item.draft.id, title: item.draft.title, from: item.draft.from ?? settings.senderName,
                created: Date(), pages: pages)
        }
        return (messages, answered)
    }
}

/// `simulate --answer PAGE=TEXT`: an answer the rehearsal gives, to page PAGE of every message or to `NAME#PAGE`.
struct GivenAnswer: Equatable {
    var message: String?
    var page: Int
    /// Normalised (`AnswerText`).
    var text: String

    /// Reads `PAGE=TEXT` or `NAME#PAGE=TEXT`; nil when it is neither.
    init?(_ given: String) {
        guard let equals = given.firstIndex(of: "=") else { return nil }
        let target = given[..<equals]
        let text = AnswerText.normalised(String(given[given.index(after: equals)...]))
        let parts = target.split(separator: "#", omittingEmptySubsequences: false)
        guard !text.isEmpty, (1...2).contains(parts.count), let page = Int(parts[parts.count - 1]),
            (1...Message.maximumPages).contains(page)
        else { return nil }
        message = parts.count == 2 ? String(parts[0]) : nil
        self.page = page
        self.text = text
    }

    func opens(_ name: String, page: Int) -> Bool { self.page == page && (message == nil || message == name) }
}

extension QuestDraft {
    /// What the quest says of its order (docs/QUEST.md "Order"), for simulate and compose: one line when every
    /// message has the same ("pages in any order …"), else one a message that says it; none when no `order:` line.
    static func orderLines(_ drafts: [QuestDraft]) -> [String] {
        let stated = drafts.filter(\.orderStated)
        guard let first = stated.first else { return [] }
        if stated.count == drafts.count, stated.allSatisfy({ $0.order == first.order }) {
            return ["pages in \(first.order.wording)"]
        }
        return stated.map { "\($0.name): pages in \($0.order.wording)" }
    }
}
