/// What the board makes of what it is handed: a receipt's proof, a hint request, and its own reasons to refuse
/// (docs/HUNTS.md "What the board credits").
extension HuntBoard {
    /// What the organiser's page keys say of a receipt's proof (`ReceiptProof.check`, in ChestSeal).
    package enum ProofCheck: Hashable, Sendable {
        /// The hunt file has no page keys for the message: it was not composed for this hunt with `--hunt`.
        case unknownMessage
        /// The message has this many pages; the receipt names another.
        case noSuchPage(Int)
        /// The receipt carries no proof.
        case missing
        /// The proof was not made with the page's key.
        case bad
        /// Made with the page's key, which only whoever opened the page could recover.
        case proven
        /// Made with the key of a guarded page: it proves only that the file was held.
        case guarded
    }

    /// What the board does with a team's request for a hint.
    package enum HintDecision: Hashable, Sendable {
        /// Answer it: seal the hint's key to `reader`. `charged` is false when the team had it already.
        case answer(reader: String, cost: Int, charged: Bool)
        /// Answer nothing: the refusal was recorded.
        case refuse
    }

    /// The board's own reasons for refusing a receipt the gate accepted (docs/HUNTS.md "What the board credits").
    package enum Refusal: String, Codable, Sendable, CaseIterable {
        /// The receipt's own signature does not verify.
        case badReceipt
        /// The message was not composed for this hunt, or has no such page.
        case unknownMessage
        case noProof
        case badProof
        /// The reader key is not one this team claimed (or it is another team's).
        case wrongReader
        /// A receipt credited to another team, sent again on this team's topic.
        case wrongTopic
        /// A hint request for a hint the organiser's file does not have.
        case noSuchHint
        /// A hint request before the board knows a reader key of the team to seal the hint to.
        case noReader
        /// An adjustment for a team that is not in the hunt.
        case unknownTeam
        /// A hint request to a board that cannot sign as the organiser.
        case cannotAnswer
        /// A submission for a page that is no mission of the organiser's file (docs/HUNTS.md "Missions").
        case notMission
        /// A submission whose sealed content did not open with the organiser's key, or is not what it claims.
        case unreadable
        /// A submission for a mission page already accepted: a page is judged once.
        case judged
    }
}
