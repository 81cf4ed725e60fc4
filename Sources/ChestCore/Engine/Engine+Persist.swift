/// Writes and what waits for them: an unlock is announced, and a right PIN accepted, only once it is on disk.
extension Engine {
    /// A `.persist` could not be written: the message goes back to the state on disk, so nothing stays open or
    /// latched that a restart would not find, and every client waiting in the write is answered.
    mutating func persistFailed(_ id: MessageID, onDisk: MessageState?, reason: String, skipped: [Effect]) -> [Effect] {
        // A receipt not asked for is owed again: the catch-up at the next start sends it, if the page opens.
        for case let .hunt(.postReceipt(_, _, link, _)) in skipped { huntBook.posting.remove(link) }
        if var stored = entries[id] {
            unregisterAll(stored)
            // PIN counts are the ledger's, and an attempt in flight is memory's: neither goes back with the state.
            let pin = stored.state.pin
            stored.state = onDisk ?? MessageState(ingestedAt: stored.state.ingestedAt)
            stored.state.pin = pin
            entries[id] = stored
            if !stored.sentByYou { register(stored) }
        }
        return Engine.answersOwed(skipped, reason: reason)
    }

    /// What is still owed of the effects a failed write left undone: every client waiting in them gets an answer
    /// (a right PIN is told to be entered again); the events and notifications of what was not saved are dropped.
    static func answersOwed(_ skipped: [Effect], reason: String) -> [Effect] {
        skipped.flatMap { effect -> [Effect] in
            switch effect {
            case let .reply(client, .pin(.accepted)):
                [
                    .reply(
                        client,
                        .failure(
                            "the PIN was right, but chestd cannot save that it opened anything (\(reason)); free some space and enter it again"
                        ))
                ]
            case let .reply(client, .answer(.accepted)):
                [
                    .reply(
                        client,
                        .failure(
                            "the answer was right, but chestd cannot save that it opened anything (\(reason)); free some space and give it again"
                        ))
                ]
            case .reply:
                [effect]
            case let .persist(_, _, then):
                answersOwed(then, reason: reason)
            default:
                []
            }
        }
    }
}

extension [Engine.Effect] {
    /// Every effect in the order they are carried out when every write succeeds: each `.persist` (without its
    /// `then`) followed by its `then`.
    package var flattened: [Engine.Effect] {
        flatMap { effect -> [Engine.Effect] in
            guard case let .persist(id, state, then) = effect else { return [effect] }
            return [.persist(id, state)] + then.flattened
        }
    }

    /// These effects, with `dependent` carried out only once the state of `id` is on disk: in the `then` of the
    /// first write of it, or at the end when there is none (nothing changed, so nothing can fail to be saved).
    func withDependent(_ dependent: [Engine.Effect], onPersistOf id: MessageID) -> [Engine.Effect] {
        guard !dependent.isEmpty else { return self }
        var effects = self
        for index in effects.indices {
            guard case let .persist(written, state, then) = effects[index], written == id else { continue }
            effects[index] = .persist(written, state, then: then + dependent)
            return effects
        }
        return effects + dependent
    }
}
