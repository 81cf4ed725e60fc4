import struct FoundationEssentials.Date

/// What goes into the board's core: a message as the adapter heard it, with what ChestSeal made of it, and the
/// journal's lines at start.
extension BoardCore {
    /// What the adapter's cryptography says of a message (ChestSeal: `HuntSigner.isValid`, `ReaderClaim.claimedReader`,
    /// `ReceiptSigner.verify`, `ReceiptProof.check` against `hunt`).
    package struct Checks: Hashable, Sendable {
        package var signatureValid: Bool
        /// The reader key the envelope claims for its sender, its claim checked; nil without one.
        package var claimedReader: String?
        /// Why a receipt's own signature does not verify; nil when it does (or for another kind).
        package var receiptProblem: String?
        package var proof: HuntBoard.ProofCheck
        /// A submission's sealed content as the organiser's key opened it (docs/HUNTS.md "Missions"); nil for
        /// another kind, or a board without the organiser's identity.
        package var opened: OpenedSubmission?

        package init(
            signatureValid: Bool, claimedReader: String? = nil, receiptProblem: String? = nil,
            proof: HuntBoard.ProofCheck = .missing, opened: OpenedSubmission? = nil
        ) {
            self.opened = opened
            self.signatureValid = signatureValid
            self.claimedReader = claimedReader
            self.receiptProblem = receiptProblem
            self.proof = proof
        }
    }

    /// What a submission's sealed box opened to, checked (`HuntSubmission.check`): its digest and text, the photo's
    /// bytes, or why it is not what it claims.
    package struct OpenedSubmission: Hashable, Sendable {
        /// SHA-256 of the opened bytes, hex.
        package var digest: String
        package var text: String?
        package var photo: [UInt8]?
        package var problem: String?

        package init(digest: String, text: String? = nil, photo: [UInt8]? = nil, problem: String? = nil) {
            self.digest = digest
            self.text = text
            self.photo = photo
            self.problem = problem
        }
    }

    /// A message as the adapter heard it.
    package struct Heard: Sendable {
        package var topic: String
        /// Nil when the payload is not an envelope at all.
        package var envelope: HuntEnvelope?
        package var retained: Bool
        /// When the board heard it (its clock): what the ranking goes by.
        package var at: Date
        package var checks: Checks

        package init(topic: String, envelope: HuntEnvelope?, retained: Bool = false, at: Date, checks: Checks) {
            self.topic = topic
            self.envelope = envelope
            self.retained = retained
            self.at = at
            self.checks = checks
        }
    }

    package enum Input: Sendable {
        /// A message from the broker.
        case heard(Heard)
        /// A message line of the journal, at start: taken in as when it was heard, neither journalled nor answered
        /// again.
        case replayed(Heard)
        /// A refusal or count line of the journal, at start.
        case replayedLine(BoardJournal.Line)
        /// The hunt file, read again after `.rereadHunt`, at `at` by the board's clock.
        case huntRead(HuntFile, at: Date)
        /// The message of a `.rereadHunt`, checked again against the hunt file as it is now (it passed the gate).
        case rechecked(Heard, replay: Bool)
        /// The board stops: refusals not yet journalled are written as counts.
        case stopping(at: Date)
        /// `count` messages from the broker refused before they were read, the first on `topic` at `at`: beyond
        /// their team's rate (`tooFast`, `TeamRate`), or dropped as the board's queue was full (`queueFull`):
        /// counted, not checked, shown at most once a `BoardJournal.countInterval` for each reason and team.
        case unread(HuntGate.Refusal, topic: String, at: Date, count: Int)
        /// The board's clock reached `nextHintDue`: the delayed hints due by then are given (docs/HUNTS.md "Hints:
        /// the board's side").
        case tick(at: Date)
    }
}
