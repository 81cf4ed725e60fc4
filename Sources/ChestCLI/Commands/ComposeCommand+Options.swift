import ChestArguments
import ChestCore
import ChestIO
import ChestSeal
import FoundationEssentials

/// Each option of `chest compose` as it is read, in order: it adds to the page or set before it.
extension ComposeCommand {
    mutating func addPage(_ text: String) throws(UsageError) {
        guard draft.pages.count < Message.maximumPages else {
            throw UsageError("a message has at most \(Message.maximumPages) pages")
        }
        draft.pages.append(PageDraft(text: text))
    }

    mutating func addLock(_ value: String, timeZone: Zone) throws(UsageError) {
        guard let index = draft.pages.indices.last else {
            throw UsageError("--lock \(value) comes before any --page; write --page TEXT first")
        }
        var value = value
        // `after=#PAGE`, as in quests (docs/QUEST.md "Chains"): a page of this message, whose ID is chosen now.
        if value.lowercased().hasPrefix("after=#") {
            let id = draft.id ?? MessageID(bytes: Sealer.randomBytes(16))
            draft.id = id
            guard let page = Int(value.dropFirst("after=#".count)), page >= 1, page <= index else {
                throw UsageError(
                    "--lock \(value): after=#PAGE names an earlier page of this message"
                        + (index == 0 ? "; page 1 has none before it" : ", 1 to \(index), such as after=#1"))
            }
            value = "after=\(id)#\(page)"
        }
        let spec: LockSpec
        do {
            spec = try LockSpec.parse(value, timeZone: timeZone)
        } catch {
            throw UsageError(error.description)
        }
        if draft.pages[index].inSetB {
            draft.pages[index].setB.append(spec)
        } else {
            draft.pages[index].setA.append(spec)
        }
        if spec.kind == .location, let radius = value.split(separator: "/").last, radius.last?.isNumber == true {
            draft.warnings.append(
                "--lock \(value): the radius has no unit; read as \(radius) m (write \(radius)m or a distance in km)")
        }
    }

    mutating func addAttachment(_ path: String) throws(UsageError) {
        guard let index = draft.pages.indices.last else {
            throw UsageError(
                "--attach \(path) comes before any --page; write --page TEXT first, then the files it carries")
        }
        guard draft.pages[index].attachments.count < Attachment.maximumCount else {
            throw UsageError(
                "page \(index + 1) has more than \(Attachment.maximumCount) attachments; put some on another page")
        }
        draft.pages[index].attachments.append(path)
    }

    mutating func addHint(_ text: String) throws(UsageError) {
        guard let index = draft.pages.indices.last else {
            throw UsageError("--hint comes before any --page; write --page TEXT first, then its hints")
        }
        guard draft.pages[index].hints.count < Page.maximumHints else {
            throw UsageError(
                "page \(index + 1) has more than \(Page.maximumHints) hints; a page has at most \(Page.maximumHints)")
        }
        if let problem = Page.hintProblem(text) { throw UsageError("page \(index + 1): \(problem)") }
        draft.pages[index].hints.append(HintDraft(text: text))
    }

    /// The last hint of the last page, which `--hint-after` and `--hint-cost` belong to.
    func lastHint(_ option: String) throws(UsageError) -> (page: Int, hint: Int) {
        guard let page = draft.pages.indices.last, let hint = draft.pages[page].hints.indices.last else {
            throw UsageError("\(option) follows no --hint; write --hint TEXT first")
        }
        return (page, hint)
    }

    mutating func setHintAfter(_ text: String) throws(UsageError) {
        let (page, hint) = try lastHint("--hint-after")
        guard draft.pages[page].hints[hint].after == nil else {
            throw UsageError("hint \(hint + 1) of page \(page + 1) already has its --hint-after")
        }
        switch HintDraft.delay(text) {
        case let .success(seconds): draft.pages[page].hints[hint].after = seconds
        case let .failure(error): throw UsageError("--hint-after: \(error)")
        }
    }

    mutating func setHintCost(_ text: String) throws(UsageError) {
        let (page, hint) = try lastHint("--hint-cost")
        guard draft.pages[page].hints[hint].cost == nil else {
            throw UsageError("hint \(hint + 1) of page \(page + 1) already has its --hint-cost")
        }
        switch HintDraft.cost(text) {
        case let .success(points): draft.pages[page].hints[hint].cost = points
        case let .failure(error): throw UsageError("--hint-cost: \(error)")
        }
    }

    mutating func addQuestion(_ text: String) throws(UsageError) {
        guard let index = draft.pages.indices.last else {
            throw UsageError("--question comes before any --page; write --page TEXT first, then its question")
        }
        guard draft.pages[index].question == nil else {
            throw UsageError("page \(index + 1) already has its --question")
        }
        if let problem = Page.questionProblem(text) { throw UsageError("--question on page \(index + 1): \(problem)") }
        draft.pages[index].question = text
    }

    mutating func addPoints(_ text: String) throws(UsageError) {
        guard let index = draft.pages.indices.last else {
            throw UsageError("--points comes before any --page; write --page TEXT first, then its points")
        }
        guard draft.pages[index].points == nil else { throw UsageError("page \(index + 1) already has its --points") }
        switch Page.parsePoints(text) {
        case let .success(points): draft.pages[index].points = points
        case let .failure(error): throw UsageError("--points on page \(index + 1): \(error), such as --points 5")
        }
    }

    mutating func markFinish() throws(UsageError) {
        guard let index = draft.pages.indices.last else {
            throw UsageError("--finish comes before any --page; write --page TEXT first, then --finish")
        }
        draft.pages[index].finish = true
    }

    mutating func markMission() throws(UsageError) {
        guard let index = draft.pages.indices.last else {
            throw UsageError("--mission comes before any --page; write --page TEXT first, then --mission")
        }
        draft.pages[index].mission = true
    }

    mutating func switchToSetB() throws(UsageError) {
        guard let index = draft.pages.indices.last else { throw UsageError("--or comes before any --page") }
        guard !draft.pages[index].inSetB else {
            throw UsageError("page \(index + 1) already has its --or; a page has two lock sets, A and B")
        }
        guard !draft.pages[index].setA.isEmpty else {
            throw UsageError("--or on page \(index + 1) follows no --lock; give set A a lock first")
        }
        draft.pages[index].inSetB = true
    }
}
