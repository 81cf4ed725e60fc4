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
    /// each set of each page, so no page opens before the message it waits for.
    package func drafts(ids: [String: MessageID]) -> [QuestDraft] {
        messages.map { message in
            let id = ids[message.name]!
            func resolve(_ lock: QuestLock) -> LockSpec {
                switch lock.spec {
                case let .spec(spec): spec
                case let .after(name, page):
                    .lock(.after(PageLink(message: name.flatMap { ids[$0] } ?? id, page: page)))
                }
            }
            let after = message.after.map(resolve)
            let pages = message.pages.map { page in
                var draft = QuestDraft.Page(
                    text: page.text, setA: page.setA.map(resolve) + after,
                    setB: page.setB.isEmpty ? [] : page.setB.map(resolve) + after)
                draft.attachments = page.attachments.map(\.path)
                draft.hints = page.hints
                (draft.question, draft.points, draft.finish) = (page.question, page.points, page.finish)
                return draft
            }
            var draft = QuestDraft(
                name: message.name, id: id, title: message.title ?? "", from: message.from ?? from,
                pages: pages)
            draft.searchArea = message.searchArea ?? searchArea
            return draft
        }
    }
}
