import ChestCore
import ChestMQTT
import ChestSeal
import Foundation

/// What a team's chestd sends, as the bench's teams send it: a signed status, a receipt with its proof, a position.
extension CityBench {
    static func status(_ team: Team, hunt: HuntFile, count: UInt64, pagesOpen: Int = 0) -> MQTTMessage {
        var status = TeamStatus(online: true, pagesOpen: pagesOpen, trust: .hardware, fixMode: 3)
        status = ReaderClaim.claim(status, hunt: hunt.id, team: team.team.name.rawValue, identity: team.reader)
        let envelope = HuntSigner.sign(
            HuntEnvelope(
                hunt: hunt.id, sender: team.team.name.rawValue, id: TeamStatus.id(session: 1, count: count),
                sent: Date(), status: status), team: team.team)!
        return MQTTMessage(
            topic: HuntTopic.status(hunt: hunt.id, team: team.team.name.rawValue), payload: envelope.bytes, qos: 1,
            retain: true)
    }

    static func receiptMessage(_ team: Team, page: Page, index: Int, hunt: HuntFile) -> MQTTMessage {
        let openedAt = Date()
        var receipt = HuntBench.receipt(page.id, signature: page.signature, page: page.page, at: openedAt)
        receipt.title = page.title
        receipt = ReceiptProof.signed(
            HuntEnvelope.shareable(receipt, sharePositions: hunt.sharePositions),
            proofKey: page.proofKey, identity: team.reader)
        let id = UInt64(index + 1)
        let claim = ReaderClaim.claim(hunt: hunt.id, team: team.team.name.rawValue, identity: team.reader)
        let envelope = HuntSigner.sign(
            HuntEnvelope(
                hunt: hunt.id, sender: team.team.name.rawValue, id: id, sent: openedAt,
                receipt: receipt, readerClaim: claim), team: team.team)!
        return MQTTMessage(
            topic: HuntTopic.receipt(hunt: hunt.id, team: team.team.name.rawValue, id: id), payload: envelope.bytes,
            qos: 1, retain: true)
    }

    /// A team's position (an OwnTracks location on the team's own topic, QoS 0) and, after the first, a fresh status.
    static func sendPosition(_ team: Team, hunt: HuntFile, round: Int) {
        let angle = Double(team.index) * 0.618 + Double(round) * 0.01
        let location =
            "{\"_type\":\"location\",\"lat\":\(47.3769 + 0.02 * cos(angle)),\"lon\":\(8.5417 + 0.03 * sin(angle)),\"tst\":\(Int(Date().timeIntervalSince1970)),\"acc\":5}"
        _ = try? team.client?.publish(
            MQTTMessage(
                topic: "owntracks/\(team.team.name)/chestd", payload: Data(location.utf8), qos: 0, retain: false))
        if round > 1 { publish(status(team, hunt: hunt, count: UInt64(round)), team) }
    }
}
