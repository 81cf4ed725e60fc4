/// How well a message file protects a page from whoever has the file (docs/SECURITY.md).
package enum Protection: String, Hashable, Sendable, Codable {
    /// Every non-empty set holds a PIN or a sealed location: the key must be guessed.
    case sealed
    /// Format 2, and a set whose only secret is a place: the place can be recovered from the file's grid
    /// (docs/SECURITY.md "Format 2's leak"), and with it the page.
    case recoverable
    /// Some set holds neither: its key is in the file, a spoiler guard only.
    case guarded
    /// Format 1: the text is in the file in the clear.
    case unsealed
}

extension Page {
    /// The weakest non-empty set decides.
    package var protection: Protection {
        guard sealed != nil else { return .unsealed }
        let sets = LockSetName.allCases.map { self[$0] }.filter { !$0.isEmpty }
        guard !sets.isEmpty && sets.allSatisfy({ $0.contains(where: \.isSecret) }) else { return .guarded }
        let placeOnly = sets.contains { set in
            set.allSatisfy { lock in
                if case let .sealedLocation(grid) = lock { return grid.area == nil }
                return !lock.isSecret
            }
        }
        return placeOnly ? .recoverable : .sealed
    }
}

extension Engine {
    /// Why a sealed lock does not hold yet, never with a distance or a bearing: the point is not the reader's
    /// to know until the page opens.
    func explainSealed(_ stored: StoredMessage, key: LockKey, lock: Lock, now: Now) -> LockReason? {
        let page = stored.message.pages[key.page - 1]
        let withPlace = page[key.set].contains { if case .sealedLocation = $0 { true } else { false } }
        let withPIN = page[key.set].contains(.sealedPIN)
        let kept = stored.state.seal.keptPIN(page: key.page) != nil
        let withAnswer = page[key.set].contains(.answer)
        let keptAnswer = stored.state.seal.keptAnswer(page: key.page) != nil
        switch lock {
        case .answer:
            return keptAnswer ? .answerKeptForPlace : .needsAnswerForPlace
        case .sealedPIN where withPlace:
            return kept ? .pinKeptForPlace : .needsPINForPlace
        case .sealedPIN:
            if let until = stored.state.pin.refusedUntil { return .pinRefused(until: until) }
            return .needsPIN
        default:
            let ref = LockRef(id: stored.id, key: key)
            if let problem = LockRule.fixProblem(lastFix, connected: gps.connected, now: now, life: cadence.maximumGap)
            {
                return problem
            }
            if let problem = LockRule.trust(trust, requiresHardware: stored.message.requiresHardware) { return problem }
            if withPIN && !kept { return .needsPINForPlace }
            if withAnswer && !keptAnswer { return .needsAnswerForPlace }
            if seal.watches[ref] == nil, streaks[ref] != nil {
                return .sealedConfirming(confirmations(of: ref), of: Self.confirmations)
            }
            return .goThere(cellsTried: stored.state.seal.tried[key]?.count ?? 0)
        }
    }
}
