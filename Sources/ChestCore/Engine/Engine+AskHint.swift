import struct FoundationEssentials.Data
import struct FoundationEssentials.Date

extension Engine {
    /// `chest hint ID [--page N]`: the page's first hint still closed. Its key in the file opens it when it has no
    /// delay or its delay is over; a hunt's hint otherwise is asked of the organiser's board; any other waits.
    mutating func askHint(_ id: MessageID, page requested: Int?, for client: ClientID, now: Now) -> [Effect] {
        guard let stored = entries[id] else { return [.reply(client, .failure("no message \(id.short)"))] }
        let title = TerminalText.escaped(stored.message.title)
        if stored.sentByYou {
            return [.reply(client, .failure("you sent \(id.short) \"\(title)\"; its hints are for its readers"))]
        }
        let pages = stored.message.pages
        let number: Int
        if let requested {
            guard (1...pages.count).contains(requested) else {
                return [
                    .reply(
                        client,
                        .failure(
                            "\(id.short) \"\(title)\" has \(pages.count) page\(pages.count == 1 ? "" : "s"), not \(requested)"
                        ))
                ]
            }
            guard !pages[requested - 1].hints.isEmpty else {
                return [.reply(client, .failure("page \(requested) of \(id.short) \"\(title)\" has no hints"))]
            }
            number = requested
        } else {
            let closed = pages.indices.map { $0 + 1 }.filter { page in
                !stored.state.isOpen(page: page)
                    && pages[page - 1].hints.indices.contains { stored.state.openHint(page: page, hint: $0 + 1) == nil }
            }
            guard let first = closed.first(where: { goalSince(stored, page: $0) != nil }) ?? closed.first else {
                let any = pages.contains { !$0.hints.isEmpty }
                return [
                    .reply(
                        client,
                        .failure(
                            any
                                ? "every hint of \(id.short) \"\(title)\" that can still help is open: chest read \(id.short)"
                                : "\(id.short) \"\(title)\" has no hints"))
                ]
            }
            number = first
        }
        if stored.state.isOpen(page: number) {
            return [
                .reply(
                    client,
                    .failure("page \(number) of \(id.short) is already open; its hints are in chest read \(id.short)"))
            ]
        }
        let hints = pages[number - 1].hints
        guard let index = hints.indices.first(where: { stored.state.openHint(page: number, hint: $0 + 1) == nil })
        else {
            return [
                .reply(client, .failure("every hint of page \(number) of \(id.short) is open: chest read \(id.short)"))
            ]
        }
        let hint = hints[index]
        let ref = HintRef(id: id, page: number, hint: index + 1)
        let due = hintDue(stored, page: number, hint: hint)
        if let key = hint.key, hint.after == nil || due.map({ $0 <= clock.trustedTime(now) }) == true {
            return openHint(stored, ref, key: key, fromOrganiser: false, client: client)
        }
        if hint.isHunts {
            guard huntBook.isJoined else {
                return [
                    .reply(
                        client,
                        .failure(
                            "hint \(ref.hint) of page \(number) is given by the hunt's organiser; join the hunt first (chest hunt join FILE)"
                        ))
                ]
            }
            let request = HuntHintRequest(message: stored.message.id, page: number, hint: ref.hint)
            return [
                .hunt(.requestHint(request)),
                .reply(
                    client,
                    .hint(
                        HintAnswer(
                            id: id, title: stored.message.title, page: number, hint: ref.hint, outcome: .asked,
                            cost: hint.cost, connected: huntBook.connected))),
            ]
        }
        let after = Wording.duration(Double(hint.after ?? 0))
        guard let due else {
            return [
                .reply(
                    client,
                    .failure(
                        "hint \(ref.hint) of page \(number) opens by itself \(after) after the page becomes your next goal; it still waits for an earlier page"
                    ))
            ]
        }
        return [
            .reply(
                client,
                .failure(
                    "hint \(ref.hint) of page \(number) opens by itself at \(ISO8601.string(due)), in \(Wording.duration(due.timeIntervalSince(clock.trustedTime(now))))"
                ))
        ]
    }
}
