import FoundationEssentials

/// A page's question and points on the wire (docs/FORMAT.md "Questions, answer locks and points"): `question` in the clear, so the
/// reader sees it before the page opens, and `points` for the hunt's board. Both absent when the organiser gave
/// none, so every other file signs and reads exactly as before.
extension WirePage {
    /// The question and points of a decoded page, checked.
    func game(number: Int) throws(MessageFormatError) -> (question: String?, points: Int?) {
        if let question, let problem = Page.questionProblem(question) {
            throw .invalidField("pages[\(number)].question", problem)
        }
        if let points, !Page.pointsRange.contains(points) {
            throw .invalidField(
                "pages[\(number)].points",
                "\(points) is outside \(Page.pointsRange.lowerBound)...\(Page.pointsRange.upperBound)")
        }
        return (question, points)
    }

    /// An answer is the only secret of its set, and its set's slot holds the answers' keys (docs/FORMAT.md "Answer
    /// locks").
    /// With a sealed place the answers go into the place's `cells` slot: 4 × 8 keys, one per cell and answer. Without
    /// an answer a `cells` slot holds the keys of its key block: 4, or 9 for a place with a PIN in format 4.
    static func checkAnswerSlot(
        _ slot: KeySlot, _ locks: [Lock], set: LockSetName, page: Int,
        version: Int
    ) throws(MessageFormatError) {
        let answer = locks.contains(.answer)
        let place = locks.contains { if case .sealedLocation = $0 { true } else { false } }
        if answer, locks.contains(where: { $0.kind == .pin || $0.kind == .release }) {
            throw .sealedPart(
                page: page,
                "set \(set.rawValue) holds an answer with a PIN or a release; an answer's only other secret may be a sealed place"
            )
        }
        let withAnswers = SealedPage.cellSlots * SealedPage.answerSlots
        switch (slot, answer) {
        case (.answers, false):
            throw .sealedPart(page: page, "set \(set.rawValue) has \"answers\" keys but no answer lock")
        case (.answers, true) where place:
            throw .sealedPart(page: page, "set \(set.rawValue) holds a sealed location, so its slot must be \"cells\"")
        case let (.cells(_, _, wrapped), true) where wrapped.count != withAnswers:
            throw .sealedPart(
                page: page,
                "key\(set.rawValue) must hold exactly \(withAnswers) keys: a sealed place with an answer lock")
        case let (.cells(_, _, wrapped), false)
        where wrapped.count != SealedPage.cellSlots(version: version, withPIN: locks.contains(.sealedPIN)):
            let count = SealedPage.cellSlots(version: version, withPIN: locks.contains(.sealedPIN))
            throw .sealedPart(page: page, "key\(set.rawValue) must hold exactly \(count) cell keys")
        case (.answers, true), (.cells, true), (_, false): return
        case (_, true):
            throw .sealedPart(page: page, "set \(set.rawValue) holds an answer, so its slot must be \"answers\"")
        }
    }
}

extension Page {
    /// The longest question, in Unicode scalars.
    package static let maximumQuestionLength = 1000
    /// The points a page may be worth.
    package static let pointsRange = 0...1000

    /// What the board credits for the page's proven opening: its points, 1 unless the organiser said otherwise.
    package var worth: Int { points ?? 1 }

    /// Why a question cannot be kept, or nil: not blank, at most 1,000 characters, no control characters but line
    /// breaks and tabs (it is shown on terminals and on the board).
    package static func questionProblem(_ question: String) -> String? {
        if question.trimmed().isEmpty { return "the question is empty" }
        if question.unicodeScalars.count > maximumQuestionLength {
            return "the question has \(question.unicodeScalars.count) characters, over \(maximumQuestionLength)"
        }
        if question.unicodeScalars.contains(where: {
            [.control, .format].contains($0.properties.generalCategory) && $0 != "\n" && $0 != "\t"
        }) {
            return "the question holds a control character; write it as plain text"
        }
        return nil
    }

    /// Reads `--points N` / `points: N`, or says why not.
    package static func parsePoints(_ text: String) -> Result<Int, PointsError> {
        guard let value = Int(text.trimmingSpaces()), pointsRange.contains(value) else {
            return .failure(PointsError(text: text))
        }
        return .success(value)
    }

    /// Points that are not an integer from 0 to 1000.
    package struct PointsError: Error, CustomStringConvertible {
        package var text: String
        package var description: String {
            "points are a whole number from \(Page.pointsRange.lowerBound) to \(Page.pointsRange.upperBound), not \"\(text)\""
        }
    }
}
