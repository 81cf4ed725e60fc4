import struct FoundationEssentials.Date

/// Delayed hints given by the board (docs/HUNTS.md "Hints: the board's side"): in a hunt, a hint with a delay has its
/// key only in the organiser's file, and the board gives it free to each team once the delay has run from the moment
/// its page became the team's next goal, by the board's clock and from what the board itself heard, so no team can
/// hurry it: not before the team's start, the moment the board first had the page's message (one composed during
/// the hunt) and the page's release. Before then a team may ask for it and pay its cost, as for any hint of the
/// board.
extension BoardCore {
    /// A hint of the organiser's file with a delay.
    struct DelayedHint: Hashable, Sendable {
        var message: MessageID
        var page: Int
        /// From 1.
        var hint: Int
        /// Seconds.
        var after: Double
        var key: String
        /// What each of the page's sets waits for (`HuntMessage.PageKey.goalSets`).
        var sets: [HuntMessage.GoalSet]
    }

    /// Every hint of the organiser's file with a delay, in a stable order.
    static func delayedHints(_ hunt: HuntFile) -> [DelayedHint] {
        (hunt.messages ?? [:]).sorted { $0.key < $1.key }.flatMap { id, message in
            message.pages.enumerated().flatMap { index, page in
                (page.hints ?? []).enumerated().compactMap { number, hint -> DelayedHint? in
                    guard let after = hint.after, after.isFinite, after >= 0 else { return nil }
                    return DelayedHint(
                        message: id, page: index + 1, hint: number + 1, after: after, key: hint.key,
                        sets: page.goalSets)
                }
            }
        }
    }

    /// When a page became the team's next goal, by the board's rule (docs/HUNTS.md "Hints: the board's side"): the
    /// team's start is the later of the hunt's start and the first status or receipt the board heard from the team,
    /// and no earlier than the board first had the page's message (`messagesHad`, for one composed mid-hunt); for each
    /// of the page's lock sets whose `after` pages were all credited to the team and whose releases the board heard,
    /// the latest of that start, the moments the board heard those receipts and those releases; the earliest such
    /// set. Nil before the team was heard, while no set is ready, or once the page itself was credited (its hints
    /// help no more).
    package func goalSince(team name: String, message: MessageID, page: Int) -> Date? {
        guard let pages = hunt.messages?[message]?.pages, pages.indices.contains(page - 1),
            let team = board[team: name]
        else { return nil }
        return goalSince(team, message: message, page: page, sets: pages[page - 1].goalSets)
    }

    private func goalSince(_ team: HuntBoard.Team, message: MessageID, page: Int, sets: [HuntMessage.GoalSet])
        -> Date?
    {
        guard let heard = team.firstHeard,
            !team.pages.contains(where: { $0.message == message && $0.page == page })
        else { return nil }
        var start = max(team.startedAt ?? heard, heard)
        if let had = messagesHad[message] { start = max(start, had) }
        return sets.compactMap { set -> Date? in
            var since = start
            for link in set.pages {
                guard let credited = team.pages.first(where: { $0.message == link.message && $0.page == link.page })
                else {
                    return nil
                }
                since = max(since, credited.receivedAt)
            }
            for name in set.releases {
                guard let released = releasedAt[name] else { return nil }
                since = max(since, released)
            }
            return since
        }.min()
    }

    /// When the board gives the hint free to the team: its goal plus its delay. Nil when it never will: not a goal
    /// yet, given already (bought or free), or due only once the hunt has ended.
    private func due(_ hint: DelayedHint, for team: HuntBoard.Team) -> Date? {
        guard
            !team.hints.contains(where: { $0.message == hint.message && $0.page == hint.page && $0.hint == hint.hint }),
            let goal = goalSince(team, message: hint.message, page: hint.page, sets: hint.sets)
        else { return nil }
        let due = goal.addingTimeInterval(hint.after)
        // Nothing after the team's own end or its finish (docs/HUNTS.md "A clock for each team").
        if team.finishedAt != nil { return nil }
        if let ends = team.closesAt, due >= ends { return nil }
        return due
    }

    /// The next moment a delayed hint falls due to a team, for the adapter's timer (`.tick`); nil when none waits.
    package var nextHintDue: Date? { dueByTeam.values.min() }

    /// Looks again at when the team's next delayed hint falls due: after anything heard from it. Only a board that
    /// signs as the organiser gives hints, and only to a team whose reader key it knows.
    mutating func refreshDue(team name: String) {
        guard answersHints, !delayed.isEmpty, let team = board[team: name], team.reader != nil else {
            dueByTeam[name] = nil
            return
        }
        dueByTeam[name] = delayed.compactMap { due($0, for: team) }.min()
    }

    /// Looks again at every team: the schedule or the organiser's file changed.
    mutating func refreshAllDue() {
        delayed = Self.delayedHints(hunt)
        dueByTeam = [:]
        for team in board.teams { refreshDue(team: team.name) }
    }

    /// Gives every delayed hint due by `time`, in the order they fell due: each recorded as given at `time` (when the
    /// board gives it: its due moment within the loop's wait, later when the board was away), cost 0, journalled and
    /// answered (`.answerHint`). After the hunt's end the board gives nothing (docs/HUNTS.md "The
    /// hunt's start and end").
    mutating func giveDueHints(by time: Date) -> [Effect] {
        let teams = dueByTeam.filter { $0.value <= time }.keys.sorted()
        guard !teams.isEmpty else { return [] }
        guard !schedule.hasEnded(at: time) else {
            for name in teams { dueByTeam[name] = nil }
            return []
        }
        var gifts: [(due: Date, team: String, hint: DelayedHint)] = []
        for name in teams {
            guard let team = board[team: name] else { continue }
            for hint in delayed {
                if let due = due(hint, for: team), due <= time { gifts.append((due, name, hint)) }
            }
        }
        gifts.sort {
            ($0.due, $0.team, $0.hint.message, $0.hint.page, $0.hint.hint) < (
                $1.due, $1.team, $1.hint.message, $1.hint.page, $1.hint.hint
            )
        }
        var effects: [Effect] = []
        for gift in gifts {
            guard
                let (reader, events) = board.recordFreeHint(
                    team: gift.team, message: gift.hint.message, page: gift.hint.page,
                    hint: gift.hint.hint, at: time)
            else { continue }
            note(events, at: time)
            effects += events.map(Effect.event)
            let given = BoardJournal.Given(
                team: gift.team, message: gift.hint.message, page: gift.hint.page, hint: gift.hint.hint)
            effects.append(.journal(BoardJournal.Line(at: time, topic: "", given: given)))
            effects.append(
                .answerHint(
                    HintAnswer(
                        team: gift.team, message: gift.hint.message, page: gift.hint.page,
                        hint: gift.hint.hint, cost: 0, reader: reader, key: gift.hint.key)))
        }
        for name in teams { refreshDue(team: name) }
        return effects
    }

    /// A delayed hint the journal says the board gave: given again, neither journalled nor answered again (the broker
    /// keeps the answer).
    mutating func replayGiven(_ given: BoardJournal.Given, at: Date) -> [Effect] {
        guard
            let (_, events) = board.recordFreeHint(
                team: given.team, message: given.message, page: given.page, hint: given.hint,
                at: at)
        else { return [] }
        note(events, at: at)
        refreshDue(team: given.team)
        return events.map(Effect.event)
    }
}
