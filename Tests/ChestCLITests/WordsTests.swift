import ChestIO
import Foundation
import Testing

@testable import ChestCLI
@testable import ChestCore

/// Issue 32's words, each at its cause: `read` words a chain once, by its message's title, and names a place by
/// the organiser's label; compose counts its Argon2id runs in good English.
@Suite struct WordsTests {
    static let utc = Zone(identifier: "UTC")!

    @Test func readWordsAChainOnceByTitleAndAPlaceByItsLabel() {
        let link = PageLink(message: MessageID(bytes: [UInt8](repeating: 0x63, count: 16)), page: 1)
        let waiting = LockReport(
            type: .after, condition: Lock.after(link).condition, holds: false,
            reason: .waitsForPage(link, title: "Old town walk"), target: Lock.after(link).target)
        #expect(
            Output.lockLine(waiting, timeZone: Self.utc) == "waits for page 1 of \u{201C}Old town walk\u{201D} to open")
        let held = LockReport(
            type: .after, condition: Lock.after(link).condition, holds: true, reason: nil, target: nil)
        #expect(Output.lockLine(held, timeZone: Self.utc) == "after page 1 of message 63636363")
        var target = Lock.location(center: Coordinate(latitude: 46.2, longitude: 6.1), radius: 30).target
        target?.label = "The old oak"
        let place = LockReport(
            type: .location, condition: "within 30 m of 46.2, 6.1", holds: true, reason: nil, target: target)
        #expect(
            Output.lockLine(place, timeZone: Self.utc)
                == "location \u{201C}The old oak\u{201D}, within 30 m of 46.2, 6.1")
    }

    @Test func oneArgon2idRunIsOneRun() {
        #expect(Composer.sealingWords(runs: 1, seconds: 1.2) == "1 Argon2id run, about 2 s")
        #expect(Composer.sealingWords(runs: 12, seconds: 40) == "12 Argon2id runs, about 40 s")
    }
}
