/// A quest message with its ID chosen and its chains resolved: the same lock specs `compose --lock` gives.
package struct QuestDraft: Hashable, Sendable {
    package struct Page: Hashable, Sendable {
        package var text: String
        package var setA: [LockSpec]
        package var setB: [LockSpec]
        /// The files it carries, by path.
        package var attachments: [String] = []
        /// Its hints, in order.
        package var hints: [HintDraft] = []
        /// The page's question and points (docs/QUEST.md "Questions and answers").
        package var question: String?
        package var points: Int?
        /// `finish: yes` (docs/HUNTS.md "A finish").
        package var finish = false
        /// `mission: yes` (docs/HUNTS.md "Missions").
        package var mission = false
        /// The quest's line of its `page:`, for what compose says of it.
        package var line: Int?
        /// What the page's place is called where it came from (`waypoint:`), for `export`.
        package var waypoint: QuestWaypoint?

        package init(text: String, setA: [LockSpec], setB: [LockSpec]) {
            self.text = text
            self.setA = setA
            self.setB = setB
        }
    }

    package var name: String
    package var id: MessageID
    package var title: String
    /// `nil` leaves the sender to the name setting.
    package var from: String?
    package var pages: [Page]
    /// The declared search area of the message's sealed places, if any.
    package var searchArea: SearchArea?
    /// The order its pages open in: the message's `order:`, else the quest's, else any.
    package var order: QuestOrder = .any
    /// Whether the quest says the order (an `order:` line), so compose tells it.
    package var orderStated = false

    package init(name: String, id: MessageID, title: String, from: String?, pages: [Page]) {
        self.name = name
        self.id = id
        self.title = title
        self.from = from
        self.pages = pages
    }
}

extension Quest {
    /// The messages with these IDs (by message name; every message needs one). A message-level `after:` joins
    /// each set of each page, so no page opens before the message it waits for. In a message of `order: sequence`
    /// every set of a page after the first without an `after` lock of its own waits for the page before, which
    /// stands for the message-level `after:` too, as that page waits for it (docs/QUEST.md "Order").
    package func drafts(ids: [String: MessageID]) -> [QuestDraft] {
        messages.map { message in
            let id = ids[message.name]!
            let order = message.order ?? self.order ?? .any
            func resolve(_ lock: QuestLock) -> LockSpec {
                switch lock.spec {
                case let .spec(spec): spec
                case let .after(name, page):
                    .lock(.after(PageLink(message: name.flatMap { ids[$0] } ?? id, page: page)))
                }
            }
            let after = message.after.map(resolve)
            let pages = message.pages.enumerated().map { index, page in
                func set(_ locks: [QuestLock]) -> [LockSpec] {
                    let written = locks.map(resolve)
                    guard order == .sequence, index > 0, !locks.contains(where: { $0.kind == .after }) else {
                        return written + after
                    }
                    return written + [.lock(.after(PageLink(message: id, page: index)))]
                }
                var draft = QuestDraft.Page(
                    text: page.text, setA: set(page.setA), setB: page.setB.isEmpty ? [] : set(page.setB))
                draft.attachments = page.attachments.map(\.path)
                draft.hints = page.hints
                (draft.question, draft.points, draft.finish) = (page.question, page.points, page.finish)
                draft.mission = page.mission
                draft.line = page.line
                draft.waypoint = page.waypoint
                return draft
            }
            var draft = QuestDraft(
                name: message.name, id: id, title: message.title ?? "", from: message.from ?? from,
                pages: pages)
            draft.searchArea = message.searchArea ?? searchArea
            draft.order = order
            draft.orderStated = message.order != nil || self.order != nil
            return draft
        }
    }
}
