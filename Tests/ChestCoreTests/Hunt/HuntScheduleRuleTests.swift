import Foundation
import Testing

@testable import ChestCore

/// The rule the board and the engine share (`HuntSchedule`, docs/HUNTS.md "The hunt's start and end").
@Suite struct HuntScheduleRuleTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func theWindowIsFromTheStartUntilTheEnd() {
        let schedule = HuntSchedule(starts: Self.t0, ends: Self.t0.addingTimeInterval(3600))
        #expect(!schedule.isOpen(at: Self.t0.addingTimeInterval(-0.001)))
        #expect(schedule.isOpen(at: Self.t0) && schedule.isOpen(at: Self.t0.addingTimeInterval(3599.999)))
        #expect(!schedule.isOpen(at: Self.t0.addingTimeInterval(3600)))
        #expect(HuntSchedule().isOpen(at: .distantPast) && HuntSchedule().isOpen(at: .distantFuture))
        #expect(HuntSchedule(starts: Self.t0).isOpen(at: .distantFuture))
        #expect(HuntSchedule(ends: Self.t0).isOpen(at: .distantPast))
    }

    @Test func theBoardCreditsWhatItReceivedWhileTheHuntIsOnOnly() {
        let schedule = HuntSchedule(starts: Self.t0, ends: Self.t0.addingTimeInterval(3600))
        // Before the start nothing of the hunt can be opened honestly: a receipt then came from an offline search or
        // a clock set forward (issue 45), so the board judges the start as it judges the end.
        #expect(!schedule.admitsCredit(receivedAt: Self.t0.addingTimeInterval(-10)))
        #expect(schedule.outside(receivedAt: Self.t0.addingTimeInterval(-0.001)) == .beforeStart)
        #expect(
            schedule.admitsCredit(receivedAt: Self.t0)
                && schedule.admitsCredit(receivedAt: Self.t0.addingTimeInterval(3599)))
        #expect(!schedule.admitsCredit(receivedAt: Self.t0.addingTimeInterval(3600)))
        #expect(schedule.outside(receivedAt: Self.t0.addingTimeInterval(3600)) == .afterEnd)
        #expect(
            HuntSchedule().admitsCredit(receivedAt: .distantFuture)
                && HuntSchedule().admitsCredit(receivedAt: .distantPast))
    }

    @Test func anEndNotAfterTheStartIsRefused() {
        #expect(HuntSchedule(starts: Self.t0, ends: Self.t0).problem?.contains("must end after it starts") == true)
        #expect(HuntSchedule(starts: Self.t0, ends: Self.t0.addingTimeInterval(1)).problem == nil)
        #expect(HuntSchedule(ends: Self.t0).problem == nil)
    }
}
