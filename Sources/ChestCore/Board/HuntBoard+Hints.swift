import struct FoundationEssentials.Date

/// Hints on the board: a request answered or refused, a delayed hint given free.
extension HuntBoard {
    /// Refuses a team's request for a hint because this board cannot sign as the organiser.
    package mutating func refuseHintRequest(team name: String, id: UInt64, at: Date) -> [BoardEvent] {
        guard var team = byName[name] else { return [] }
        team.lastHeard = at
        let events = refuse(
            .cannotAnswer,
            "hint request \(id): this board does not run with the organiser's identity, "
                + "so it cannot sign the answer", team: &team, at: at)
        byName[name] = team
        return events
    }

    /// Takes in a team's request (an envelope the gate accepted) for the hint of the organiser's file that
    /// `cost` (nil: the page has no such hint) says. Charges the cost the first time the team is given that hint.
    package mutating func recordHintRequest(
        team name: String, _ request: HuntHintRequest, id: UInt64, cost: Int?,
        receivedAt: Date
    ) -> (HintDecision, [BoardEvent]) {
        guard var team = byName[name] else { return (.refuse, []) }
        team.lastHeard = receivedAt
        let asked = "hint request \(id): hint \(request.hint) of \(request.message.short) page \(request.page)"
        guard let cost else {
            let events = refuse(.noSuchHint, asked + " is not in the organiser's file", team: &team, at: receivedAt)
            byName[name] = team
            return (.refuse, events)
        }
        guard let reader = team.reader else {
            let events = refuse(
                .noReader, asked + ": the team's reader key is not known yet (no status heard)", team: &team,
                at: receivedAt)
            byName[name] = team
            return (.refuse, events)
        }
        // A hint given before is answered again at what it cost then (0 when the board gave it after its delay).
        let earlier = team.hints.first {
            $0.message == request.message && $0.page == request.page && $0.hint == request.hint
        }
        let given = earlier != nil
        let charge = earlier?.cost ?? cost
        if !given {
            team.hints.append(
                GivenHint(
                    message: request.message, page: request.page, hint: request.hint, cost: charge,
                    receivedAt: receivedAt))
        }
        byName[name] = team
        let event = BoardEvent.hint(
            team: name, message: request.message.rawValue, page: request.page, hint: request.hint, cost: charge,
            charged: !given, receivedAt: receivedAt)
        return (.answer(reader: reader, cost: charge, charged: !given), [event, Self.event(team)])
    }

    /// Gives a team a delayed hint free, its delay over (docs/HUNTS.md "Hints: the board's side"): the reader key to
    /// seal it to and the events, or nil when the team has no reader key or had the hint already.
    package mutating func recordFreeHint(
        team name: String, message: MessageID, page: Int, hint: Int,
        at: Date
    ) -> (reader: String, events: [BoardEvent])? {
        guard var team = byName[name], let reader = team.reader,
            !team.hints.contains(where: { $0.message == message && $0.page == page && $0.hint == hint })
        else { return nil }
        team.hints.append(GivenHint(message: message, page: page, hint: hint, cost: 0, receivedAt: at))
        byName[name] = team
        return (
            reader,
            [
                .hint(
                    team: name, message: message.rawValue, page: page, hint: hint, cost: 0, charged: true,
                    receivedAt: at),
                Self.event(team),
            ]
        )
    }

    /// The team of this name, when it is one of the hunt's.
    package subscript(team name: String) -> Team? { byName[name] }
}
