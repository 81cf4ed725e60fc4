import Foundation
import Testing

@testable import ChestCore

private typealias F = CoreFixture

private let hash1 = "$argon2id$v=19$m=65536,t=2,p=1$one$one"
private let hash2 = "$argon2id$v=19$m=65536,t=2,p=1$two$two"

private func key(_ page: Int, _ set: LockSetName, _ kind: LockKind) -> LockKey {
    LockKey(page: page, set: set, kind: kind)
}
// Status

@Suite struct EngineStatusTests {
    @Test func statusReportsTheLinkTheFixAndTheCounts() {
        let locked = F.message(1, pages: [Page(text: "a", setA: [.pin(hash: hash1)])])
        let partial = F.message(2, pages: [Page(text: "a"), Page(text: "b", setA: [.pin(hash: hash1)])])
        let open = F.message(3, pages: [Page(text: "a")])
        let saved = F.message(4, pages: [Page(text: "a", setA: [.pin(hash: hash1)])])
        var engine = Engine(gpsServer: "gps.local:2947")
        #expect(engine.status(now: F.now()).gpsd == .init(connected: false, server: "gps.local:2947", reason: nil))
        _ = engine.handle(
            .loaded(
                [F.stored(locked), F.stored(partial), F.stored(open), F.stored(saved, chest: .saved)],
                refused: [], F.now()))
        let connect = engine.handle(.gpsLink(connected: true, server: "gps.local:2947", reason: nil))
        #expect(connect == [.emit(.gpsd(connected: true, server: "gps.local:2947", reason: nil))])
        #expect(engine.handle(.gpsLink(connected: true, server: "gps.local:2947", reason: nil)) == [])
        _ = engine.handle(.fix(F.fix(at: 1, mode: 2, altitude: 35, eph: 7.5), F.now(1)))
        let status = engine.status(now: F.now(4))
        #expect(status.gpsd.connected)
        #expect(status.fix?.mode == 2)
        #expect(status.fix?.latitude == F.tower.latitude)
        #expect(status.fix?.eph == 7.5)
        #expect(status.fix?.ageSeconds == 3)
        #expect(status.clock.system == F.t0.addingTimeInterval(4))
        #expect(status.clock.gpsOffsetSeconds == nil)
        #expect(status.messages == .init(locked: 1, partial: 1, open: 1, saved: 1))
    }
}

/// A right PIN whose opening the disk refused: the engine, not the daemon, answers the client.
@Suite struct EnginePINPersistFailureTests {
    @Test func aRightPINWhoseOpeningCouldNotBeSavedIsAnsweredWithWhatToDo() {
        let message = F.message(pages: [Page(text: "pin", setA: [.pin(hash: hash1)])])
        var engine = F.engine([F.stored(message)])
        _ = engine.handle(.pin(message.id, page: nil, pin: "4821", F.now(1)))
        _ = engine.handle(.attemptsRecorded(message.id, .done, F.now(1)))
        let right = engine.handle(.pinChecked(message.id, pin: "4821", matching: [key(1, .a, .pin)], F.now(2)))
        // The acceptance waits inside the write of what it opened.
        #expect(!right.contains { if case .reply = $0 { true } else { false } })
        guard case let .persist(id, _, then) = right.first(where: { if case .persist = $0 { true } else { false } })
        else {
            Issue.record("no write in \(right)")
            return
        }
        #expect(id == message.id)
        #expect(then.pinResults == [.accepted(latched: [key(1, .a, .pin)], opened: [1])])

        let answer = engine.handle(
            .persistFailed(message.id, onDisk: nil, reason: "No space left on device", skipped: then))
        #expect(
            answer == [
                .reply(
                    F.client,
                    .failure(
                        "the PIN was right, but chestd cannot save that it opened anything (No space left on device); free some space and enter it again"
                    ))
            ])
        #expect(engine.entries[message.id]?.state.openPageNumbers == [])
    }
}
