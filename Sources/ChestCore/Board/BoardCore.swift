import FoundationEssentials
import Glibc

/// The organiser's board as a pure core (docs/ARCHITECTURE.md "The board's core"), like the engine: what `chest
/// board` hears goes in as an `Input`, what follows comes out as `Effect`s, in order, for a thin adapter to carry
/// out. It checks each message (gate, copies, then `HuntBoard`), decides what the journal keeps and what the
/// lists show, asks for the hunt file again when a message names one it does not know, and answers hint requests.
/// No I/O, no clock: the adapter passes when it heard each message, and what ChestSeal made of its signatures.
package struct BoardCore: Sendable {
    package private(set) var hunt: HuntFile
    /// The hunt's start and end in force: the hunt file's, then the newest signed schedule heard.
    package private(set) var schedule: HuntSchedule
    /// The organiser's latest words, oldest first, at most `listed`.
    package private(set) var words: [HeardWord] = []
    /// The teams' latest questions, oldest first, at most `listedQuestions`.
    package private(set) var questions: [HeardQuestion] = []
    package static let listedQuestions = 200
    /// The teams' submissions for mission pages, in the order the board heard them: those waiting to be judged
    /// (one a team and page: a later one replaces it) and those judged (docs/HUNTS.md "Missions").
    package internal(set) var submissions: [HeardSubmission] = []
    /// Verdicts heard before the submission they judge (a board started afresh hears retained messages in any
    /// order), by `<team>/<submission id>`.
    var verdictsWaiting: [String: (verdict: HuntVerdict, at: Date)] = [:]
    package internal(set) var board: HuntBoard
    package internal(set) var gate: HuntGate
    /// Whether this board can sign as the organiser: without, hint requests are refused (`cannotAnswer`).
    package let answersHints: Bool
    /// The latest credits, hints and adjustments, and the latest refusals, each with when the board heard it,
    /// newest last, at most `listed` each.
    package private(set) var latest: [Logged] = []
    package private(set) var refusals: [Logged] = []
    package static let listed = 50
    /// Exact copies of messages already believed, ignored.
    package private(set) var copies = 0
    /// The signatures of the messages believed: an exact copy of one is a redelivery (QoS 1, a retained message sent
    /// again, a team's outbox after a crash), or a replay that tells nothing new.
    var believed: Set<String> = []
    /// The journal's refusal lines so far, the refusals not journalled yet (reason → team or "" → count), and when
    /// the last count line was written.
    var refusalLines = 0
    var uncounted: [String: [String: Int]] = [:]
    var countedAt: Date?
    /// The hints of the organiser's file with a delay, and for each team with a reader key the moment the next of
    /// them falls due (`BoardCore+DelayedHints.swift`).
    var delayed: [DelayedHint] = []
    var dueByTeam: [String: Date] = [:]
    /// When the board first had each message added to the hunt file while it ran (`.huntRead`), journalled so a
    /// restarted board keeps it; a message in the file from the board's start is not here. And when the board first
    /// heard each release. A delayed hint counts from neither earlier (docs/HUNTS.md "Hints: the board's side").
    var messagesHad: [MessageID: Date] = [:]
    var releasedAt: [String: Date] = [:]
    /// When the last refusal of each reason read by no one (`tooFast`, `queueFull`) was shown, by reason and team
    /// (docs/HUNTS.md "A team that floods"). The rate itself is checked before a message reaches the core
    /// (`TeamRate`, on the adapter's network thread).
    private var unreadShown: [String: Date] = [:]

    package init(hunt: HuntFile, answersHints: Bool) {
        self.hunt = hunt
        self.answersHints = answersHints
        board = HuntBoard(hunt: hunt)
        gate = HuntGate(hunt: hunt)
        schedule = hunt.schedule
        board.apply(schedule)
        delayed = Self.delayedHints(hunt)
    }

    /// Every event worth a line, for the terminal: both lists, in the order they came.
    package var events: [Logged] {
        (latest + refusals).enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(
            \.element)
    }

    package mutating func handle(_ input: Input) -> [Effect] {
        switch input {
        // The hints that fell due before a message are given before it; the journal keeps them in that order
        // (docs/HUNTS.md "Hints: the board's side").
        case let .heard(heard): giveDueHints(by: heard.at) + take(heard, replay: false)
        case let .replayed(heard): take(heard, replay: true)
        case let .replayedLine(line): replay(line)
        case let .huntRead(file, at): read(file, at: at)
        case let .rechecked(heard, replay): record(heard, replay: replay)
        case let .stopping(at): flushCounts(at: at)
        case let .tick(at): giveDueHints(by: at)
        case let .unread(refusal, topic, at, count): throttle(refusal, topic: topic, at: at, count: count)
        }
    }

    /// `count` messages refused unread, the first on `topic` at `at`: counted for the gate and for the team below
    /// whose name the topic is (none for a name that is no team's, or the whole hunt's topic of `queueFull`); shown
    /// and journalled as any refusal at most once a `countInterval` for each reason and team, and otherwise only
    /// counted, so a flood adds at most a count line a minute to the journal and a line a minute to the board's output.
    private mutating func throttle(_ refusal: HuntGate.Refusal, topic: String, at: Date, count: Int) -> [Effect] {
        guard count > 0 else { return [] }
        let team = board.team(named: topic)
        let shown = refusal.rawValue + "/" + (team ?? "")
        var effects: [Effect] = []
        var left = count
        if !(unreadShown[shown].map({ at.timeIntervalSince($0) < BoardJournal.countInterval }) ?? false) {
            unreadShown[shown] = at
            gate.count(refusal)
            effects = refuse(refusal, topic: topic, at: at, replay: false)
            left -= 1
        }
        guard left > 0 else { return effects }
        gate.count(refusal, times: left)
        if let team { board.countRefusals(refusal.rawValue, team: team, left) }
        uncounted[refusal.rawValue, default: [:]][team ?? "", default: 0] += left
        if countedAt.map({ at.timeIntervalSince($0) >= BoardJournal.countInterval }) ?? true {
            effects += flushCounts(at: at)
        }
        return effects
    }

    /// The hunt file read again at `at`: its messages (composed during the hunt) are the ones the board knows now,
    /// and those it did not know are journalled as had from then, so their delayed hints count from then.
    private mutating func read(_ file: HuntFile, at: Date) -> [Effect] {
        guard file.id == hunt.id else { return [] }
        let new = (file.messages ?? [:]).keys.filter { hunt.messages?[$0] == nil && messagesHad[$0] == nil }.sorted()
        for id in new { messagesHad[id] = at }
        hunt.messages = file.messages
        refreshAllDue()
        return new.isEmpty ? [] : [.journal(BoardJournal.Line(at: at, topic: "", had: new))]
    }

    private mutating func take(_ heard: Heard, replay: Bool) -> [Effect] {
        guard let envelope = heard.envelope else {
            gate.countMalformed()
            return refuse(.malformed, heard, replay: replay)
        }
        if let signature = envelope.signature, believed.contains(signature) {
            copies += 1
            return []
        }
        switch gate.admit(envelope, topic: heard.topic, signatureValid: heard.checks.signatureValid) {
        case let .refused(refusal):
            return refuse(refusal, heard, replay: replay)
        case .accepted:
            // The board's hint answers, a team's start key and a word told to one team (its own, another board's),
            // heard back, tell it nothing (docs/HUNTS.md "Hints").
            if envelope.kind == .hint || envelope.kind == .start || envelope.kind == .told { return [] }
            if let signature = envelope.signature { believed.insert(signature) }
            var effects: [Effect] = []
            // A submission is journalled as what the board made of it, its photo beside the journal, not its
            // sealed bytes (`recordSubmission`).
            if !replay, envelope.kind != .submit {
                effects.append(
                    .journal(
                        BoardJournal.Line(
                            at: heard.at, topic: heard.topic,
                            payload: envelope.bytes.base64EncodedString())))
            }
            if let message = Self.messageNamed(by: envelope.body), hunt.messages?[message] == nil {
                return effects + [.rereadHunt(heard, replay: replay)]
            }
            return effects + record(heard, replay: replay)
        }
    }

    /// Takes in an envelope the gate accepted.
    private mutating func record(_ heard: Heard, replay: Bool) -> [Effect] {
        guard let envelope = heard.envelope else { return [] }
        let events: [BoardEvent]
        var effects: [Effect] = []
        // Judged by when the board received it (docs/HUNTS.md "The hunt's start and end"): outside the window a
        // receipt credits nothing and a hint request is neither answered nor charged, so the final ranking stays.
        if envelope.kind == .receipt || envelope.kind == .hintRequest,
            let outside = schedule.forTeam(envelope.sender).outside(receivedAt: heard.at)
        {
            gate.count(outside)
            events = board.recordRefusal(outside, topic: BoardJournal.shortened(heard.topic), at: heard.at)
            note(events, at: heard.at)
            return events.map(Effect.event)
        }
        switch envelope.body {
        case let .release(release) where releasedAt[release.name] == nil:
            releasedAt[release.name] = heard.at
            refreshAllDue()
            events = []
        case let .schedule(schedule):
            // The gate accepts only a newer schedule, or the one in force heard again.
            self.schedule = schedule
            board.apply(schedule)
            refreshAllDue()
            return []
        case let .said(said):
            guard !words.contains(where: { $0.said.id == envelope.id }) else { return [] }
            words.append(
                HeardWord(at: heard.at, said: HuntWord.Said(id: envelope.id, text: said.text, at: envelope.sent)))
            if words.count > Self.listed { words.removeFirst(words.count - Self.listed) }
            return []
        case let .adjust(adjustment):
            events = board.recordAdjustment(adjustment, receivedAt: heard.at)
        case let .ask(question):
            questions.append(HeardQuestion(team: envelope.sender, text: question.text, at: heard.at, id: envelope.id))
            if questions.count > Self.listedQuestions { questions.removeFirst(questions.count - Self.listedQuestions) }
            events = [.asked(team: envelope.sender, text: question.text, id: envelope.id, receivedAt: heard.at)]
        case let .submit(submission):
            return recordSubmission(envelope, submission, heard, replay: replay)
        case let .verdict(verdict):
            events = recordVerdict(verdict, at: heard.at)
        case let .hintRequest(request):
            let hint = page(request.message, request.page)?.hints.flatMap {
                $0.indices.contains(request.hint - 1) ? $0[request.hint - 1] : nil
            }
            let decision: HuntBoard.HintDecision
            if answersHints || hint == nil {
                (decision, events) = board.recordHintRequest(
                    team: envelope.sender, request, id: envelope.id,
                    cost: hint.map { max(Self.bounded($0.cost), 0) }, receivedAt: heard.at)
            } else {
                decision = .refuse
                events = board.refuseHintRequest(team: envelope.sender, id: envelope.id, at: heard.at)
            }
            if case let .answer(reader, cost, _) = decision, let hint, answersHints, !replay {
                effects.append(
                    .answerHint(
                        HintAnswer(
                            team: envelope.sender, message: request.message, page: request.page,
                            hint: request.hint, cost: cost, reader: reader, key: hint.key)))
            }
        case .receipt, .status, .release, .hint, .start, .told:
            var envelope = envelope
            var worth = 1
            var finishes = false
            if case .receipt(var receipt, let claim) = envelope.body, let page = page(receipt.message, receipt.page) {
                // A mission's points come from the organiser's verdict, not its opening (docs/HUNTS.md "Missions").
                worth = page.mission == true ? 0 : Self.bounded(page.worth)
                finishes = page.finish == true
                // A team signs whatever title it likes; the board shows the one the organiser composed.
                if let title = hunt.messages?[receipt.message]?.title {
                    receipt.title = title
                    envelope.body = .receipt(receipt, readerClaim: claim)
                }
            }
            events = board.record(
                envelope, receiptProblem: heard.checks.receiptProblem, proof: heard.checks.proof,
                claimedReader: heard.checks.claimedReader, worth: worth,
                starts: schedule.forTeam(envelope.sender).starts, finishes: finishes, receivedAt: heard.at)
        }
        note(events, at: heard.at)
        refreshDue(team: envelope.sender)
        return events.map(Effect.event) + effects
    }

    /// The message a receipt or a hint request names: the board must know its pages.
    private static func messageNamed(by body: HuntEnvelope.Body) -> MessageID? {
        switch body {
        case let .receipt(receipt, _): receipt.message
        case let .hintRequest(request): request.message
        case .status, .release, .hint, .adjust, .schedule, .said, .start, .ask, .told, .submit, .verdict: nil
        }
    }

    /// A page's points or a hint's cost from the organiser's file, within what an adjustment may carry, so that no
    /// sum of a team's points can overflow, whatever the file says.
    static func bounded(_ points: Int) -> Int { min(max(points, -HuntAdjustment.limit), HuntAdjustment.limit) }

    func page(_ message: MessageID, _ page: Int) -> HuntMessage.PageKey? {
        guard let pages = hunt.messages?[message]?.pages, pages.indices.contains(page - 1) else { return nil }
        return pages[page - 1]
    }

    mutating func note(_ events: [BoardEvent], at: Date) {
        for event in events {
            switch event {
            case .team: continue
            case .refused: Self.keep(Logged(at: at, event: event), in: &refusals)
            case .unlock, .hint, .adjusted, .asked, .judged: Self.keep(Logged(at: at, event: event), in: &latest)
            case .submitted: continue
            }
        }
    }

    private static func keep(_ entry: Logged, in list: inout [Logged]) {
        list.append(entry)
        if list.count > listed { list.removeFirst(list.count - listed) }
    }
}
