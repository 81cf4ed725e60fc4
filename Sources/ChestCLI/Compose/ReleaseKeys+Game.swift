import ChestCore

/// A page's points and question in the organiser's hunt file, for the board (docs/HUNTS.md "Hunt files"): kept beside the
/// page key `record` just wrote.
extension ReleaseKeys {
    /// Notes the points (nil: the default 1, not written) and the question of the page last recorded for `id`.
    mutating func recordGame(_ id: MessageID, page: Int, points: Int?, question: String?) {
        guard var message = hunt.messages?[id], message.pages.indices.contains(page - 1) else { return }
        message.pages[page - 1].points = points
        message.pages[page - 1].question = question
        hunt.messages?[id] = message
    }
}
