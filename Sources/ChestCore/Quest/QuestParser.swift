import FoundationEssentials

/// Reads the quest format of docs/QUEST.md. Pure: files next to the quest (page texts, GPX waypoints) are read
/// through the closures the caller passes.
package struct QuestParser {
    /// The text of a page file (`page: @FILE`), by the path written in the quest.
    package var pageText: (String) throws -> String
    /// A GPX waypoint (`location=FILE#NAME/RADIUS`), by file and name.
    package var waypoint: (_ file: String, _ name: String) throws -> Coordinate
    /// Times without a zone are read in this zone.
    package var timeZone: Zone
    /// The path an attached file (`attach: FILE`) is read from, by the path written in the quest; throws when
    /// there is no such file. The path as written by default.
    package var attachment: (String) throws -> String = { $0 }

    package init(
        timeZone: Zone, pageText: @escaping (String) throws -> String,
        waypoint: @escaping (_ file: String, _ name: String) throws -> Coordinate
    ) {
        self.timeZone = timeZone
        self.pageText = pageText
        self.waypoint = waypoint
    }

    /// The fields a line can start with.
    package static let fields = [
        "from", "message", "title", "after", "order", "page", "|", "lock", "or", "attach", "search-area", "hint",
        "hint-after",
        "hint-cost",
        "question", "points", "finish", "mission", "waypoint",
    ]

    /// Reads and checks a quest, reporting every mistake found (up to `QuestErrors.limit`) rather than the first:
    /// a line with a mistake is skipped and the reading goes on, so one run lists what there is to fix.
    package func parse(_ text: String) throws(QuestErrors) -> Quest {
        var quest = Quest()
        var errors = QuestErrors()
        var faultyLocks: Set<Int> = []
        // The line of each message name's first `message:`: looked up, not searched, so a course of 20,000
        // messages is read in one pass (issue 61).
        var names: [String: Int] = [:]
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = index + 1
            let trimmed = raw.trimming { $0.isSpace || $0 == "\r" }
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let (field, value) = Self.split(trimmed)
            do {
                try apply(field, value, line: line, to: &quest, faultyLocks: &faultyLocks, names: &names)
            } catch {
                errors.append(error)
            }
            if errors.isFull { throw errors }
        }
        for error in check(quest) { errors.append(error) }
        guard errors.errors.isEmpty else { throw errors }
        return quest
    }

    private static func split(_ line: String) -> (String, String) {
        if line.hasPrefix("|") {
            let rest = line.dropFirst()
            return ("|", String(rest.hasPrefix(" ") ? rest.dropFirst() : rest))
        }
        guard let colon = line.firstIndex(of: ":") else { return (line.lowercased(), "") }
        return (
            line[..<colon].trimmingSpaces().lowercased(),
            line[line.index(after: colon)...].trimmingSpaces()
        )
    }

    /// One line into the quest. `faultyLocks` holds the lines of pages one of whose locks was refused, so that an
    /// `or` after it is not blamed as well; `names` the line of each message name's first `message:`.
    private func apply(
        _ field: String, _ value: String, line: Int, to quest: inout Quest,
        faultyLocks: inout Set<Int>, names: inout [String: Int]
    ) throws(QuestError) {
        func fail(_ problem: String) -> QuestError { QuestError(line: line, field: field, problem) }
        let messageIndex = quest.messages.indices.last
        let pageIndex = messageIndex.flatMap { quest.messages[$0].pages.indices.last }
        switch field {
        case "from" where messageIndex == nil:
            guard !value.isEmpty else { throw fail("write the sender's name after from:") }
            quest.from = value
        case "search-area":
            let area: SearchArea
            do {
                area = try SearchArea.parse(value)
            } catch {
                throw fail(error.problem + " (search-area: LAT,LON/RADIUSkm)")
            }
            if let messageIndex { quest.messages[messageIndex].searchArea = area } else { quest.searchArea = area }
        case "order":
            guard let order = QuestOrder(rawValue: value.lowercased()) else {
                throw fail(
                    "write order: any (pages open as they are reached) or order: sequence (each waits for the one before)"
                )
            }
            if let messageIndex {
                guard quest.messages[messageIndex].order == nil else { throw fail("the message already has its order") }
                quest.messages[messageIndex].order = order
            } else {
                guard quest.order == nil else { throw fail("the quest already has its order") }
                quest.order = order
            }
        case "message":
            // The message starts even when its name is refused, so that its lines are read as its own.
            let other = names[value]
            if other == nil { names[value] = line }
            quest.messages.append(QuestMessage(name: value, line: line))
            guard !value.isEmpty, value.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
                throw fail("a message's name is letters, digits, - and _, such as message: oak")
            }
            if let other { throw fail("a message named \"\(value)\" already starts on line \(other)") }
        case "title", "from", "after", "page":
            guard let messageIndex else { throw fail("comes before any message; write message: NAME first") }
            switch field {
            case "title":
                guard !value.isEmpty else { throw fail("the title is empty") }
                guard value.count <= Message.maximumTitleLength else {
                    throw fail("the title has \(value.count) characters, over \(Message.maximumTitleLength)")
                }
                quest.messages[messageIndex].title = value
            case "from": quest.messages[messageIndex].from = value
            case "after": quest.messages[messageIndex].after.append(try after(value, line: line, field: field))
            default:
                let tooMany = quest.messages[messageIndex].pages.count >= Message.maximumPages
                // Started even when refused, so that its lock lines are not blamed on the page before.
                quest.messages[messageIndex].pages.append(QuestPage(text: "", line: line))
                if tooMany {
                    throw fail("a message has at most \(Message.maximumPages) pages; split it into two messages")
                }
                let last = quest.messages[messageIndex].pages.count - 1
                quest.messages[messageIndex].pages[last].text = try pageText(value, line: line)
            }
        case "|":
            guard let messageIndex, let pageIndex else {
                throw fail("a | line continues a page's text; write page: first")
            }
            // Appended in place: building a new string for each line made a long page quadratic (issue 24).
            if quest.messages[messageIndex].pages[pageIndex].text.isEmpty {
                quest.messages[messageIndex].pages[pageIndex].text = value
            } else {
                quest.messages[messageIndex].pages[pageIndex].text.append("\n" + value)
            }
        case "lock":
            guard let messageIndex, let pageIndex else { throw fail("comes before any page; write page: TEXT first") }
            let lock: QuestLock
            do {
                lock = try self.lock(value, line: line)
            } catch {
                faultyLocks.insert(quest.messages[messageIndex].pages[pageIndex].line)
                throw error
            }
            var page = quest.messages[messageIndex].pages[pageIndex]
            let set = page.inSetB ? page.setB : page.setA
            if let other = set.first(where: { $0.kind == lock.kind }) {
                throw fail(
                    "set \(page.inSetB ? "B" : "A") already has a \(lock.kind.rawValue) lock (line \(other.line)); "
                        + "a set holds at most one of each type, use or for an alternative")
            }
            if page.inSetB { page.setB.append(lock) } else { page.setA.append(lock) }
            quest.messages[messageIndex].pages[pageIndex] = page
        case "attach":
            guard let messageIndex, let pageIndex else {
                throw fail("comes before any page; write page: TEXT first, then the files it carries")
            }
            guard !value.isEmpty else {
                throw fail("write the file after attach:, such as attach: oak.jpg (next to the quest)")
            }
            guard quest.messages[messageIndex].pages[pageIndex].attachments.count < Attachment.maximumCount else {
                throw fail("a page carries at most \(Attachment.maximumCount) files; put some on another page")
            }
            let path: String
            do {
                path = try attachment(value)
            } catch {
                throw fail("\(value): \(error)")
            }
            quest.messages[messageIndex].pages[pageIndex].attachments.append(QuestAttachment(path: path, line: line))
        case "hint", "hint-after", "hint-cost":
            guard let messageIndex, let pageIndex else {
                throw fail("comes before any page; write page: TEXT first, then its hints")
            }
            try hint(field, value, to: &quest.messages[messageIndex].pages[pageIndex], fail: fail)
        case "question":
            guard let messageIndex, let pageIndex else {
                throw fail("comes before any page; write page: TEXT first, then its question")
            }
            if let problem = Page.questionProblem(value) { throw fail(problem + "; write question: TEXT") }
            guard quest.messages[messageIndex].pages[pageIndex].question == nil else {
                throw fail("the page already has a question")
            }
            quest.messages[messageIndex].pages[pageIndex].question = value
        case "waypoint":
            guard let messageIndex, let pageIndex else {
                throw fail("comes before any page; write page: TEXT first, then its waypoint's name")
            }
            guard let waypoint = QuestWaypoint(parsing: value) else {
                throw fail(
                    "write waypoint: NAME or waypoint: NAME (TYPE), a name of 1 to \(QuestWaypoint.maximumNameLength) characters such as waypoint: GC3A5N1 (Geocache|Multi-cache)"
                )
            }
            guard quest.messages[messageIndex].pages[pageIndex].waypoint == nil else {
                throw fail("the page already has its waypoint")
            }
            quest.messages[messageIndex].pages[pageIndex].waypoint = waypoint
        case "points":
            guard let messageIndex, let pageIndex else {
                throw fail("comes before any page; write page: TEXT first, then its points")
            }
            switch Page.parsePoints(value) {
            case let .success(points): quest.messages[messageIndex].pages[pageIndex].points = points
            case let .failure(error): throw fail(error.description + ", such as points: 5")
            }
        case "finish":
            guard let messageIndex, let pageIndex else {
                throw fail("comes before any page; write page: TEXT first, then finish: yes")
            }
            switch value.lowercased() {
            case "yes": quest.messages[messageIndex].pages[pageIndex].finish = true
            case "no": quest.messages[messageIndex].pages[pageIndex].finish = false
            default: throw fail("finish: is yes or no, not \"\(value)\"")
            }
        case "mission":
            guard let messageIndex, let pageIndex else {
                throw fail("comes before any page; write page: TEXT first, then mission: yes")
            }
            switch value.lowercased() {
            case "yes": quest.messages[messageIndex].pages[pageIndex].mission = true
            case "no": quest.messages[messageIndex].pages[pageIndex].mission = false
            default: throw fail("mission: is yes or no, not \"\(value)\"")
            }
        case "or":
            guard let messageIndex, let pageIndex else { throw fail("comes before any page") }
            let page = quest.messages[messageIndex].pages[pageIndex]
            guard !page.inSetB else {
                throw fail("page on line \(page.line) already has its or; a page has two lock sets")
            }
            quest.messages[messageIndex].pages[pageIndex].inSetB = true
            guard !page.setA.isEmpty || faultyLocks.contains(page.line) else {
                throw fail("follows no lock; give set A a lock first")
            }
        default:
            throw fail(
                "unknown field; a line starts with one of "
                    + Self.fields.map { $0 == "|" ? "|" : $0 + ":" }
                    .joined(separator: ", ") + " or #")
        }
    }

}
