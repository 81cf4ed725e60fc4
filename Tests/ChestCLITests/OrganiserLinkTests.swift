import ChestCore
import ChestIO
import ChestMQTT
import ChestSeal
import Foundation
import Testing

@testable import ChestCLI

/// `chest board`'s rate is checked on libmosquitto's thread, before the loop's mailbox (docs/HUNTS.md "A team that
/// floods"): what lies beyond a team's rate is counted and never posted, so the loop is not woken for it; everything
/// else (other teams, what the broker hands over on subscribing, the connection's events) is posted in order.
@Suite struct OrganiserLinkTests {
    @Test func aTeamBeyondItsRateNeverReachesTheMailboxAndIsCountedForTheLoop() throws {
        let keys = HuntSigner.newTeamKeys()
        var hunt = HuntFile(
            id: HuntSigner.newHuntID(), name: "Gate", broker: BrokerURL("mqtt://127.0.0.1:1883")!, organiser: "")
        hunt.teams = ["red", "blue"].map {
            HuntTeam(
                name: TeamName($0)!, password: HuntSigner.newPassword(), publicKey: keys.publicKey,
                secretKey: keys.secretKey)
        }
        let mailbox = try Mailbox<MQTTEvent>()
        let rate = RateGate(hunt: hunt)
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        let red = HuntTopic.status(hunt: hunt.id, team: "red")
        let blue = HuntTopic.receipt(hunt: hunt.id, team: "blue", id: 1)
        OrganiserLink.post(.connected, to: mailbox, through: rate, at: t0)
        for index in 0..<1_000 {
            OrganiserLink.post(
                .message(topic: red, payload: Data([UInt8(index % 256)]), retained: false), to: mailbox,
                through: rate, at: t0.addingTimeInterval(Double(index) / 1_000))
        }
        OrganiserLink.post(.message(topic: blue, payload: Data(), retained: false), to: mailbox, through: rate, at: t0)
        OrganiserLink.post(.message(topic: red, payload: Data(), retained: true), to: mailbox, through: rate, at: t0)
        OrganiserLink.post(.delivered(7), to: mailbox, through: rate, at: t0)

        let events = mailbox.wait(timeout: 5).events
        let reds = events.filter { event in
            guard case let .message(topic, _, retained) = event else { return false }
            return topic == red && !retained
        }
        // 1,000 within a second: its burst, no more.
        #expect(reds.count == Int(TeamRate.burst), "\(reds.count) of red's 1,000 reached the mailbox")
        #expect(reds.first == .message(topic: red, payload: Data([0]), retained: false))
        #expect(events.first == .connected && events.last == .delivered(7))
        #expect(events.contains(.message(topic: blue, payload: Data(), retained: false)))
        #expect(events.contains(.message(topic: red, payload: Data(), retained: true)))
        let refused = rate.takeRefused()
        #expect(refused.count == 1 && refused[0].topic == red && refused[0].count == 1_000 - reds.count)
        // Without a rate (`chest hunt` commands), everything is posted.
        let plain = try Mailbox<MQTTEvent>()
        for _ in 0..<500 {
            OrganiserLink.post(.message(topic: red, payload: Data(), retained: false), to: plain, through: nil, at: t0)
        }
        #expect(plain.wait(timeout: 5).events.count == 500)
    }
}
