import struct FoundationEssentials.Date

/// The gate's refusals: shown, counted, journalled one a line and then as counts, and read back from the journal.
extension BoardCore {
    /// A refusal by the gate: shown, counted, and journalled one a line while the journal has fewer than
    /// `BoardJournal.refusalLines` of them, then as counts, at most one line a `BoardJournal.countInterval`.
    mutating func refuse(_ refusal: HuntGate.Refusal, _ heard: Heard, replay: Bool) -> [Effect] {
        refuse(refusal, topic: heard.topic, at: heard.at, replay: replay)
    }

    mutating func refuse(_ refusal: HuntGate.Refusal, topic heardTopic: String, at: Date, replay: Bool)
        -> [Effect]
    {
        let topic = BoardJournal.shortened(heardTopic)
        let events = board.recordRefusal(refusal, topic: topic, at: at)
        note(events, at: at)
        var effects = events.map(Effect.event)
        guard !replay else { return effects }
        if refusalLines < BoardJournal.refusalLines {
            refusalLines += 1
            effects.append(.journal(BoardJournal.Line(at: at, topic: topic, refused: refusal.rawValue)))
        } else {
            uncounted[refusal.rawValue, default: [:]][board.team(named: heardTopic) ?? "", default: 0] += 1
            if countedAt.map({ at.timeIntervalSince($0) >= BoardJournal.countInterval }) ?? true {
                effects += flushCounts(at: at)
            }
        }
        return effects
    }

    mutating func flushCounts(at: Date) -> [Effect] {
        guard !uncounted.isEmpty else { return [] }
        defer { uncounted = [:] }
        countedAt = at
        return [.journal(BoardJournal.Line(at: at, topic: "", counts: uncounted))]
    }

    mutating func replay(_ line: BoardJournal.Line) -> [Effect] {
        if let submitted = line.submitted { return replaySubmission(submitted) }
        if let given = line.given { return replayGiven(given, at: line.at) }
        if let had = line.had {
            for id in had where messagesHad[id] == nil { messagesHad[id] = line.at }
            refreshAllDue()
            return []
        }
        if let reason = line.refused {
            refusalLines += 1
            let refusal = HuntGate.Refusal(rawValue: reason) ?? .malformed
            gate.count(refusal)
            let events = board.recordRefusal(refusal, topic: line.topic, at: line.at)
            note(events, at: line.at)
            return events.map(Effect.event)
        }
        guard let counts = line.counts else { return [] }
        countedAt = line.at
        for (reason, teams) in counts {
            guard let refusal = HuntGate.Refusal(rawValue: reason) else { continue }
            for (team, count) in teams where count > 0 {
                gate.count(refusal, times: count)
                board.countRefusals(reason, team: team, count)
            }
        }
        return []
    }
}
