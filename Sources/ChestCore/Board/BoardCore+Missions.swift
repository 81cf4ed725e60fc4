import FoundationEssentials

/// Missions on the board (docs/HUNTS.md "Missions"): a team's submissions, waiting oldest first, one a team and page
/// (a later one replaces one not yet judged), and the organiser's verdicts, which credit an accepted page once.
extension BoardCore {
    /// A submission as the board took it in, and its judgement.
    package struct HeardSubmission: Codable, Hashable, Sendable {
        package enum State: String, Codable, Hashable, Sendable {
            case waiting, accepted, rejected
        }

        package var team: String
        package var message: MessageID
        package var page: Int
        package var kind: HuntSubmission.Kind
        /// The text, for a text; nil for a photo.
        package var text: String?
        /// SHA-256 of what it held (the photo's bytes or the text's UTF-8), hex.
        package var digest: String
        /// The team's id of it (its outbox sequence number), and the signature of its envelope, base64.
        package var id: UInt64
        package var signature: String?
        /// When the board heard it.
        package var at: Date
        package var state: State = .waiting
        package var points: Int?
        package var reason: String?
        package var judgedAt: Date?

        package init(
            team: String, message: MessageID, page: Int, kind: HuntSubmission.Kind, text: String?, digest: String,
            id: UInt64, signature: String?, at: Date
        ) {
            self.team = team
            self.message = message
            self.page = page
            self.kind = kind
            self.text = text
            self.digest = digest
            self.id = id
            self.signature = signature
            self.at = at
        }

        /// The photo's file name in the folder beside the journal; nil for a text.
        package var photoName: String? { kind.isPhoto ? "\(digest).\(kind.rawValue)" : nil }

        func isFor(_ team: String, _ message: MessageID, _ page: Int) -> Bool {
            self.team == team && self.message == message && self.page == page
        }
    }

    /// The submissions waiting to be judged, oldest first.
    package var waiting: [HeardSubmission] { submissions.filter { $0.state == .waiting } }

    /// A submission the gate accepted: refused when its page is no mission, it did not open or is not what it claims,
    /// or the page was accepted already; otherwise it replaces the team's one waiting for the page, its photo is kept
    /// beside the journal and the journal keeps what the board made of it.
    mutating func recordSubmission(
        _ envelope: HuntEnvelope, _ submission: HuntSubmission, _ heard: Heard, replay: Bool
    ) -> [Effect] {
        let team = envelope.sender
        let name = "submission \(envelope.id) for \(submission.message.short) page \(submission.page)"
        guard page(submission.message, submission.page)?.mission == true else {
            return refuseSubmission(team, .notMission, name + ": the page is no mission", at: heard.at)
        }
        guard let opened = heard.checks.opened, opened.problem == nil else {
            let why = heard.checks.opened?.problem ?? "it does not open with this board's key (the organiser's)"
            return refuseSubmission(team, .unreadable, name + ": " + why, at: heard.at)
        }
        var taken = HeardSubmission(
            team: team, message: submission.message, page: submission.page, kind: submission.kind,
            text: opened.text, digest: opened.digest, id: envelope.id, signature: envelope.signature, at: heard.at)
        if submission.kind.isPhoto, opened.photo == nil { taken.kind = .text }
        var effects: [Effect] = []
        if !replay, let name = taken.photoName, let photo = opened.photo {
            effects.append(.keepPhoto(name: name, bytes: photo))
        }
        return effects + admit(taken, replay: replay)
    }

    /// A submission line of the journal, at start.
    mutating func replaySubmission(_ submitted: HeardSubmission) -> [Effect] {
        if let signature = submitted.signature { believed.insert(signature) }
        var taken = submitted
        taken.state = .waiting
        (taken.points, taken.reason, taken.judgedAt) = (nil, nil, nil)
        return admit(taken, replay: true)
    }

    private mutating func admit(_ taken: HeardSubmission, replay: Bool) -> [Effect] {
        let (team, message, page) = (taken.team, taken.message, taken.page)
        if submissions.contains(where: { $0.isFor(team, message, page) && $0.state == .accepted }) {
            return refuseSubmission(
                team, .judged,
                "submission \(taken.id) for \(message.short) page \(page): the page was accepted already",
                at: taken.at)
        }
        var effects: [Effect] = []
        if let index = submissions.firstIndex(where: { $0.isFor(team, message, page) && $0.state == .waiting }) {
            let replaced = submissions.remove(at: index)
            if !replay, let name = replaced.photoName, name != taken.photoName,
                !submissions.contains(where: { $0.photoName == name })
            {
                effects.append(.dropPhoto(name: name))
            }
        }
        submissions.append(taken)
        if !replay {
            effects.append(.journal(BoardJournal.Line(at: taken.at, topic: "", submitted: taken)))
        }
        let event = BoardEvent.submitted(
            team: team, message: message, page: page, kind: taken.kind.rawValue, id: taken.id, receivedAt: taken.at)
        effects.append(.event(event))
        if let waiting = verdictsWaiting.removeValue(forKey: "\(team)/\(taken.id)") {
            let events = recordVerdict(waiting.verdict, at: waiting.at)
            note(events, at: waiting.at)
            effects += events.map(Effect.event)
        }
        return effects
    }

    /// The organiser's verdict: judges the submission it names once, while it waits; an accepted one credits its
    /// points, at most the page's. A verdict heard before its submission waits for it.
    mutating func recordVerdict(_ verdict: HuntVerdict, at: Date) -> [BoardEvent] {
        guard
            let index = submissions.firstIndex(where: {
                $0.isFor(verdict.team, verdict.message, verdict.page) && $0.id == verdict.submission
            })
        else {
            if verdictsWaiting.count < Self.listedQuestions * 10 {
                verdictsWaiting["\(verdict.team)/\(verdict.submission)"] = (verdict, at)
            }
            return []
        }
        var judged = submissions[index]
        guard judged.state == .waiting, judged.digest == verdict.digest else { return [] }
        let most = page(verdict.message, verdict.page).map { Self.bounded($0.worth) } ?? 0
        let points = verdict.accepted ? min(max(verdict.points, 0), most) : 0
        judged.state = verdict.accepted ? .accepted : .rejected
        (judged.points, judged.reason, judged.judgedAt) = (points, verdict.reason, at)
        submissions[index] = judged
        var events: [BoardEvent] = [
            .judged(
                team: verdict.team, message: verdict.message, page: verdict.page, accepted: verdict.accepted,
                points: points, reason: verdict.reason, receivedAt: at)
        ]
        if verdict.accepted {
            events += board.recordMission(
                HuntBoard.MissionCredit(
                    message: verdict.message, page: verdict.page, points: points, reason: verdict.reason,
                    submission: verdict.submission, receivedAt: at), team: verdict.team)
        }
        return events
    }

    private mutating func refuseSubmission(_ team: String, _ refusal: HuntBoard.Refusal, _ why: String, at: Date)
        -> [Effect]
    {
        let events = board.refuseSubmission(team: team, refusal, why, at: at)
        note(events, at: at)
        return events.map(Effect.event)
    }
}
