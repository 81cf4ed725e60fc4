/// One page of one message, as an `after` lock names it: `MESSAGE_ID#PAGE` (docs/QUEST.md "Chains").
package struct PageLink: Hashable, Sendable, Comparable, TextCodable {
    package var message: MessageID
    /// 1-based.
    package var page: Int

    package init(message: MessageID, page: Int) {
        self.message = message
        self.page = page
    }

    /// Reads `MESSAGE_ID#PAGE`, with a page from 1 to `Message.maximumPages`.
    package init?(_ text: String) {
        let parts = text.split(separator: "#", omittingEmptySubsequences: false)
        guard parts.count == 2, let id = MessageID(String(parts[0]).lowercased()), let page = Int(parts[1]),
            (1...Message.maximumPages).contains(page)
        else { return nil }
        self.init(message: id, page: page)
    }

    package var description: String { "\(message)#\(page)" }

    package static func < (a: PageLink, b: PageLink) -> Bool { (a.message, a.page) < (b.message, b.page) }
}

extension Lock {
    /// The page an `after` lock waits for.
    package var pageLink: PageLink? {
        if case let .after(link) = self { link } else { nil }
    }

    /// The release a release lock waits for.
    package var releaseName: String? {
        if case let .release(name) = self { name } else { nil }
    }
}
