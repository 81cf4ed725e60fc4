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

    private func pageText(_ value: String, line: Int) throws(QuestError) -> String {
        guard value.hasPrefix("@") else { return value }
        let path = String(value.dropFirst())
        do {
            // A text file ends in a newline that is not part of the page.
            var text = try pageText(path)
            while text.last?.isNewline == true { text.removeLast() }
            return text
        } catch {
            throw QuestError(line: line, field: "page", "cannot read \(path): \(error)")
        }
    }

    private func lock(_ value: String, line: Int) throws(QuestError) -> QuestLock {
        let lowered = value.lowercased()
        if lowered.hasPrefix("after=") {
            return try after(String(value.dropFirst(6)), line: line, field: "lock")
        }
        var text = value
        var waypointName: String?
        if lowered.hasPrefix("location="), let hash = value.firstIndex(of: "#"),
            let slash = value[hash...].firstIndex(of: "/")
        {
            let file = String(value[value.index(value.startIndex, offsetBy: 9)..<hash])
            let name = String(value[value.index(after: hash)..<slash])
            let point: Coordinate
            do {
                point = try waypoint(file, name)
            } catch {
                throw QuestError(line: line, field: "lock", "\(file)#\(name): \(error)")
            }
            text = "location=\(point.latitude),\(point.longitude)" + value[slash...]
            waypointName = name
        }
        do {
            var spec = try LockSpec.parse(text, timeZone: timeZone)
            // A visible place keeps the organiser's waypoint name unless the quest names it itself.
            if case let .visible(inner, nil) = spec, let waypointName, Page.labelProblem(waypointName) == nil {
                spec = .visible(inner, label: waypointName)
            }
            return QuestLock(.spec(spec), line: line)
        } catch {
            throw QuestError(line: line, field: "lock", "\(value): \(error.problem)")
        }
    }

    /// `NAME#PAGE`, `#PAGE` (this message) or `MESSAGE_ID#PAGE` (a message built elsewhere).
    private func after(_ value: String, line: Int, field: String) throws(QuestError) -> QuestLock {
        if let link = PageLink(value) { return QuestLock(.spec(.lock(.after(link))), line: line) }
        let parts = value.split(separator: "#", omittingEmptySubsequences: false)
        guard parts.count == 2, let page = Int(parts[1]), (1...Message.maximumPages).contains(page) else {
            throw QuestError(
                line: line, field: field,
                "write after=MESSAGE#PAGE (a message of this quest, or #PAGE for this one), such as after=oak#1")
        }
        return QuestLock(.after(message: parts[0].isEmpty ? nil : String(parts[0]), page: page), line: line)
    }

    /// What needs the whole quest: titles, pages, and chains that point at an earlier page; every fault found.
    private func check(_ quest: Quest) -> [QuestError] {
        guard !quest.messages.isEmpty else {
            return [QuestError(line: 1, field: "message", "the quest has no message; start one with message: NAME")]
        }
        var errors: [QuestError] = []
        // Each name's first message, so that a chain is checked in constant time however many messages there are.
        var positions: [String: Int] = [:]
        for (position, message) in quest.messages.enumerated() where positions[message.name] == nil {
            positions[message.name] = position
        }
        for (position, message) in quest.messages.enumerated() {
            if message.title == nil {
                errors.append(
                    QuestError(
                        line: message.line, field: "title", "message \(message.name) has no title:; add a title: line"))
            }
            if message.pages.isEmpty {
                errors.append(
                    QuestError(line: message.line, field: "page", "message \(message.name) has no page:; add one"))
            }
            if message.after.count > 1 {
                errors.append(
                    QuestError(line: message.after[1].line, field: "after", "a message has at most one after: line"))
            }
            for (pageIndex, page) in message.pages.enumerated() {
                for lock in message.after + page.setA + page.setB {
                    guard case let .after(name, number) = lock.spec else { continue }
                    let field = message.after.contains(lock) ? "after" : "lock"
                    if let problem = Self.chainProblem(
                        name: name, page: number, from: message, at: position, pageIndex: pageIndex,
                        messageLevel: field == "after", in: quest, positions: positions)
                    {
                        errors.append(QuestError(line: lock.line, field: field, problem))
                    }
                }
                if !message.after.isEmpty,
                    page.setA.contains(where: { $0.kind == .after })
                        || page.setB.contains(where: { $0.kind == .after })
                {
                    errors.append(
                        QuestError(
                            line: page.line, field: "page",
                            "the message has an after: line, so its pages cannot have after locks too"))
                }
            }
        }
        // A message-level after: is checked once per page above; say it once.
        var seen: Set<QuestError> = []
        return errors.filter { seen.insert($0).inserted }
    }

    /// Why an `after` of a message (at `position` in the quest, on its page `pageIndex`) names no earlier page;
    /// `positions` is each name's first message.
    private static func chainProblem(
        name: String?, page number: Int, from message: QuestMessage, at position: Int,
        pageIndex: Int, messageLevel: Bool, in quest: Quest, positions: [String: Int]
    ) -> String? {
        if let name, name != message.name {
            guard let first = positions[name], first < position else {
                return positions[name] != nil
                    ? "message \(name) comes later; a message can wait only for an earlier one"
                    : "no message named \(name) in this quest"
            }
            let target = quest.messages[first]
            return number <= target.pages.count ? nil : "message \(name) has \(target.pages.count) pages, not \(number)"
        }
        return messageLevel || number > pageIndex ? "a page can wait only for an earlier page of its message" : nil
    }
}
