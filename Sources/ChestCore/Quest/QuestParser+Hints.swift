/// A quest's `hint:`, `hint-after:` and `hint-cost:` lines (docs/QUEST.md "Hints"): the delay and the cost belong to
/// the hint just before them.
extension QuestParser {
    func hint(_ field: String, _ value: String, to page: inout QuestPage, fail: (String) -> QuestError)
        throws(QuestError)
    {
        if field == "hint" {
            guard page.hints.count < Page.maximumHints else {
                throw fail("a page has at most \(Page.maximumHints) hints")
            }
            if let problem = Page.hintProblem(value) { throw fail(problem + "; write the hint after hint:") }
            page.hints.append(HintDraft(text: value))
            return
        }
        guard let last = page.hints.indices.last else { throw fail("follows no hint:; write hint: TEXT first") }
        if field == "hint-after" {
            guard page.hints[last].after == nil else { throw fail("the hint already has its hint-after:") }
            switch HintDraft.delay(value) {
            case let .success(seconds): page.hints[last].after = seconds
            case let .failure(error): throw fail(error.description)
            }
        } else {
            guard page.hints[last].cost == nil else { throw fail("the hint already has its hint-cost:") }
            switch HintDraft.cost(value) {
            case let .success(points): page.hints[last].cost = points
            case let .failure(error): throw fail(error.description)
            }
        }
    }
}
