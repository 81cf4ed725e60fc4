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

    /// Issue 61: a team's messages on any topic below its name are rated (a flood on `receipt/<not-an-id>` went
    /// straight to the loop), and what waits for the loop is bounded: a message within its rate that finds the
    /// mailbox full is dropped and counted `queueFull`, never one the broker hands over on subscribing (retained).
    @Test func everyTopicOfATeamIsRatedAndAFullMailboxDropsAndCountsTheRest() throws {
        let keys = HuntSigner.newTeamKeys()
        var hunt = HuntFile(
            id: HuntSigner.newHuntID(), name: "Gate", broker: BrokerURL("mqtt://127.0.0.1:1883")!, organiser: "")
        hunt.teams = (0..<6).map {
            HuntTeam(
                name: TeamName("team\($0)")!, password: HuntSigner.newPassword(), publicKey: keys.publicKey,
                secretKey: keys.secretKey)
        }
        let mailbox = try Mailbox<MQTTEvent>()
        let rate = RateGate(hunt: hunt)
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        let junk = "chest/\(hunt.id)/team0/receipt/not-an-id"
        for _ in 0..<1_000 {
            OrganiserLink.post(
                .message(topic: junk, payload: Data(), retained: false), to: mailbox, through: rate, at: t0)
        }
        #expect(mailbox.wait(timeout: 5).events.count == Int(TeamRate.burst), "team0's burst, no more")
        #expect(rate.takeRefused() == [TeamRate.Refused(topic: junk, at: t0, count: 900)])

        // Five other teams, each within its burst, 60 kB a message: 30 MB, more than the mailbox keeps.
        let big = Data(repeating: 7, count: 60_000)
        var posted = 0
        for team in 1..<6 {
            for id in 1...100 {
                let topic = HuntTopic.receipt(hunt: hunt.id, team: "team\(team)", id: UInt64(id))
                OrganiserLink.post(
                    .message(topic: topic, payload: big, retained: false), to: mailbox, through: rate, at: t0)
                posted += 1
            }
        }
        let retained = HuntTopic.status(hunt: hunt.id, team: "team1")
        OrganiserLink.post(.message(topic: retained, payload: big, retained: true), to: mailbox, through: rate, at: t0)
        OrganiserLink.post(.connected, to: mailbox, through: rate, at: t0)
        let events = mailbox.wait(timeout: 5).events
        let weights = events.compactMap { event -> Int? in
            guard case let .message(topic, payload, false) = event else { return nil }
            return topic.utf8.count + payload.count + OrganiserLink.messageOverhead
        }
        let live = weights.count
        // As many as fit, and no room for one more.
        let total = weights.reduce(0, +)
        #expect(total <= OrganiserLink.queueLimit && total + weights[0] + 8 > OrganiserLink.queueLimit, "\(live)")
        #expect(events.contains(.message(topic: retained, payload: big, retained: true)), "retained: never dropped")
        #expect(events.last == .connected)
        let refused = rate.takeRefused()
        #expect(
            refused.map(\.reason) == [.queueFull] && refused[0].count == posted - live
                && refused[0].topic == HuntTopic.all(hunt: hunt.id), "\(refused)")
        // Once the loop took its batch, there is room again.
        OrganiserLink.post(
            .message(topic: HuntTopic.status(hunt: hunt.id, team: "team2"), payload: big, retained: false),
            to: mailbox, through: rate, at: t0.addingTimeInterval(1))
        #expect(mailbox.wait(timeout: 5).events.count == 1 && rate.takeRefused().isEmpty)
    }
}
