import ChestCore

/// A page's points and question in the organiser's hunt file, for the board (docs/HUNTS.md "Hunt files"): kept beside the
/// page key `record` just wrote.
extension ReleaseKeys {
    /// Notes the points (nil: the default 1, not written), the question of the page last recorded for `id`, and
    /// whether it is a finish page (docs/HUNTS.md "A finish") or a mission (docs/HUNTS.md "Missions").
    mutating func recordGame(
        _ id: MessageID, page: Int, points: Int?, question: String?, finish: Bool = false, mission: Bool = false
    ) {
        guard var message = hunt.messages?[id], message.pages.indices.contains(page - 1) else { return }
        message.pages[page - 1].points = points
        message.pages[page - 1].question = question
        message.pages[page - 1].finish = finish ? true : nil
        message.pages[page - 1].mission = mission ? true : nil
        hunt.messages?[id] = message
    }
}
