import ChestCore
import ChestIO
import ChestMQTT
import ChestSeal
import FoundationEssentials

/// What a team posts through the outbox: receipts, requests to the board, submissions sealed to the organiser.
extension HuntLink {
    /// Puts a receipt, proven and signed, and its OwnTracks transition in the outbox; returns why it could not.
    func postReceipt(_ receipt: UnlockReceipt, proofKey: String?, link: PageLink) -> String? {
        guard let connection else { return "no hunt is joined" }
        guard let identity else {
            log.error(
                "hunt: no identity to sign the receipt of \(link.message.short) page \(link.page); run chest hunt join again"
            )
            return "no identity"
        }
        let hunt = connection.hunt
        let team = connection.team.name
        let receipt = ReceiptProof.signed(receipt, proofKey: proofKey, identity: identity)
        let transition = OwnTracksTransition(
            receipt: receipt, huntName: hunt.name, team: team.rawValue, sharePositions: hunt.sharePositions)
        let what = "the receipt of \(link.message.short) page \(link.page)"
        let posted =
            append(what) { id in
                (
                    HuntTopic.receipt(hunt: hunt.id, team: team.rawValue, id: id),
                    sign(
                        HuntEnvelope(
                            hunt: hunt.id, sender: team.rawValue, id: id, sent: Date(), receipt: receipt,
                            readerClaim: ReaderClaim.claim(hunt: hunt.id, team: team.rawValue, identity: identity)),
                        connection), true
                )
            }
            && append("the transition of \(link.message.short) page \(link.page)") { _ in
                (HuntTopic.ownTracksEvent(team: team.rawValue, device: connection.device), transition.bytes, false)
            }
        return posted ? nil : "the outbox refused \(what)"
    }

    /// Puts a team's request (a hint request, a question) in the outbox, signed with the team's key under the outbox's
    /// next id, on the topic `topic` names for that id, retained, and sends what can be sent.
    func postRequest(
        _ what: String, body: HuntEnvelope.Body, topic: (Connection, UInt64) -> String
    ) -> [HuntNews] {
        guard let connection else { return [] }
        _ = append(what) { id in
            (
                topic(connection, id),
                sign(
                    HuntEnvelope(
                        hunt: connection.hunt.id, sender: connection.team.name.rawValue, id: id, sent: Date(),
                        body: body),
                    connection), true
            )
        }
        if !connection.connected {
            log.notice("hunt: \(what) waits in the outbox; it is sent when the broker is back")
        }
        flush()
        return [.outbox(outbox?.count ?? 0)]
    }

    /// A mission's photo or text sealed to the organiser's key (docs/HUNTS.md "Missions"). The photo is read here,
    /// its size asked before it is read, and checked by its bytes again: `chest hunt submit` checked it, but the file
    /// may have changed since.
    static func sealed(_ message: MessageID, page: Int, content: MissionContent, to organiser: String) throws
        -> HuntSubmission
    {
        let bytes: [UInt8]
        let kind: HuntSubmission.Kind
        switch content {
        case let .text(text):
            (bytes, kind) = (Array(text.utf8), .text)
        case let .file(path):
            bytes = try MissionFile.read(path)
            kind = try MissionPhoto.check(bytes).get().kind
        }
        guard let box = HintSeal.seal(Data(bytes), toReader: organiser) else {
            throw ChestError("the organiser's key in the join file is not an Ed25519 key; join again")
        }
        return HuntSubmission(message: message, page: page, kind: kind, sealed: box.base64EncodedString())
    }
}
