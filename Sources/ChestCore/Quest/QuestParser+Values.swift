import FoundationEssentials

/// A field's value read (a page's text, a lock, an after=), and the quest checked whole once read.
extension QuestParser {
    func pageText(_ value: String, line: Int) throws(QuestError) -> String {
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

    func lock(_ value: String, line: Int) throws(QuestError) -> QuestLock {
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
    func after(_ value: String, line: Int, field: String) throws(QuestError) -> QuestLock {
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
    func check(_ quest: Quest) -> [QuestError] {
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
    static func chainProblem(
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
