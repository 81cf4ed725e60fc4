/// A team's submission for a mission page and the organiser's verdict on it (docs/HUNTS.md "Missions").
extension Engine {
    /// `chest hunt submit ID PAGE --file FILE | --text TEXT`: checked here as far as the engine can (a hunt joined,
    /// the message in the chest, the page, the text), then put in the outbox by the hunt's adapter, which reads and
    /// checks the photo again, seals it to the organiser and signs it with the team's key.
    mutating func submit(_ id: MessageID, page: Int, text: String?, path: String?, for client: ClientID) -> [Effect] {
        guard huntBook.isJoined else {
            return [.reply(client, .failure("no hunt is joined; join one first (chest hunt join FILE)"))]
        }
        guard let stored = entries[id] else { return [.reply(client, .failure("no message \(id.short)"))] }
        let pages = stored.message.pages.count
        guard (1...pages).contains(page) else {
            return [
                .reply(
                    client,
                    .failure(
                        "\(id.short) \"\(TerminalText.escaped(stored.message.title))\" has \(pages) page\(pages == 1 ? "" : "s"), not \(page)"
                    ))
            ]
        }
        let content: MissionContent
        if let text {
            if let problem = HuntSubmission.problem(text: text) { return [.reply(client, .failure(problem))] }
            content = .text(text)
        } else if let path, path.hasPrefix("/") {
            content = .file(path)
        } else {
            return [.reply(client, .failure("submit needs a text or an absolute path"))]
        }
        let sent =
            huntBook.connected
            ? "sent to the organiser's board, sealed to the organiser; chest watch tells you the verdict"
            : "the broker is away: the submission waits in the outbox; it is sent when the broker is back"
        return [.hunt(.submit(message: id, page: page, content: content)), .reply(client, .notes([sent]))]
    }
}
