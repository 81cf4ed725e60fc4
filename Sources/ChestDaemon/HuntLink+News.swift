import ChestCore
import ChestIO
import ChestMQTT
import ChestSeal
import FoundationEssentials

extension HuntLink {
    /// What the broker said, for the engine; acknowledgements are the outbox's business.
    func news(_ event: MQTTEvent) -> HuntNews? {
        guard let current = connection else { return nil }
        switch event {
        case .connected:
            connection?.connected = true
            connection?.problem = nil
            log.info("hunt: connected to \(current.hunt.broker)")
            flush()
            return .connected
        case let .connectionRefused(why):
            if current.problem != why {
                log.error("hunt: \(current.hunt.broker) refused team \(current.team.name): \(why)")
            }
            connection?.connected = false
            connection?.problem = why
            return .refused(why)
        case let .disconnected(why):
            if current.connected {
                log.warning("hunt: lost \(current.hunt.broker): \(why); receipts wait in the outbox")
            }
            connection?.connected = false
            connection?.problem = why
            connection?.inFlight.removeAll()
            return .lost(why)
        case let .delivered(mid):
            guard let id = connection?.inFlight.removeValue(forKey: mid) else { return nil }
            do {
                try outbox?.remove(id)
            } catch {
                log.error(
                    "hunt: cannot remove outbox entry \(id): \(error); it will be sent again (the board ignores the copy)"
                )
            }
            return .outbox(outbox?.count ?? 0)
        case let .message(topic, payload, _):
            do {
                let envelope = try HuntEnvelope.decode(payload)
                let sealed: String? =
                    switch envelope.body {
                    case let .hint(hint): hint.sealed
                    case let .start(start): start.sealed
                    case let .told(word): word.sealed
                    default: nil
                    }
                if let sealed {
                    // Sealed to the team's key, which every device of the team has (docs/HUNTS.md "Several devices
                    // in one team"), or, from an older board, to this reader; the engine's gate decides whether to
                    // believe it.
                    let key = Data(base64Encoded: sealed).flatMap { box in
                        HintSeal.open(box, withSecretKey: current.teamKey)
                            ?? identity.flatMap { HintSeal.open(box, with: $0) }
                    }
                    return .sealedKey(
                        envelope, topic: topic, signatureValid: HuntSigner.isValid(envelope),
                        key: key.map { [UInt8]($0) })
                }
                return .heard(envelope, topic: topic, signatureValid: HuntSigner.isValid(envelope))
            } catch {
                log.warning("hunt: ignored a malformed message on \(TerminalText.escaped(topic)): \(error)")
                return .malformed(topic: topic)
            }
        }
    }
}
