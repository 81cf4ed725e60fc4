/// One page of one message, as an `after` lock names it: `MESSAGE_ID#PAGE` (docs/QUEST.md "Chains").
public struct PageLink: Hashable, Sendable, Comparable, TextCodable {
    public var message: MessageID
    /// 1-based.
    public var page: Int

    public init(message: MessageID, page: Int) {
        self.message = message
        self.page = page
    }

    /// Reads `MESSAGE_ID#PAGE`, with a page from 1 to `Message.maximumPages`.
    public init?(_ text: String) {
        let parts = text.split(separator: "#", omittingEmptySubsequences: false)
        guard parts.count == 2, let id = MessageID(String(parts[0]).lowercased()), let page = Int(parts[1]),
              (1...Message.maximumPages).contains(page) else { return nil }
        self.init(message: id, page: page)
    }

    public var description: String { "\(message)#\(page)" }

    public static func < (a: PageLink, b: PageLink) -> Bool { (a.message, a.page) < (b.message, b.page) }
}

extension Lock {
    /// The page an `after` lock waits for.
    public var pageLink: PageLink? {
        if case let .after(link) = self { link } else { nil }
    }
}
