import ChestIO
import Foundation
import Testing

@testable import ChestCore

private typealias F = CoreFixture

private let hash1 = "$argon2id$v=19$m=65536,t=2,p=1$one$one"
private let hash2 = "$argon2id$v=19$m=65536,t=2,p=1$two$two"

private func key(_ page: Int, _ set: LockSetName, _ kind: LockKind) -> LockKey {
    LockKey(page: page, set: set, kind: kind)
}

// PIN

@Suite struct EnginePINTests {
    static let message = F.message(pages: [
        Page(text: "pin only", setA: [.pin(hash: hash1)]),
        Page(text: "pin and time", setA: [.pin(hash: hash2), .time(F.t0.addingTimeInterval(1000))]),
        Page(text: "no pin", setA: [.time(F.t0.addingTimeInterval(2000))]),
    ])

    @Test func anAttemptIsCountedInTheLedgerBeforeTheComparison() {
        var engine = F.engine([F.stored(Self.message)])
        let effects = engine.handle(.pin(Self.message.id, page: nil, pin: "4821", F.now(1)))
        var counted = MessageState(ingestedAt: F.t0)
        counted.pin.wrong = 1
        counted.pin.pending = "4821"
        // The ledger is the one durable record of the count; the state is written when the attempt concludes.
        #expect(effects == [.recordAttempts(Self.message.id, counted.pin)])
        // Compared only once the ledger holds the count.
        #expect(
            engine.handle(.attemptsRecorded(Self.message.id, .done, F.now(1))) == [
                .checkPIN(Self.message.id, pin: "4821", hashes: [key(1, .a, .pin): hash1, key(2, .a, .pin): hash2])
            ])
        // A second attempt while the first is being checked is refused, not counted.
        #expect(
            engine.handle(.pin(Self.message.id, page: 2, pin: "4822", F.now(2))).pinResults
                == [.failed("another PIN attempt on this message is being checked; try again")])
        _ = engine.handle(.pinChecked(Self.message.id, pin: "4821", matching: [], F.now(2)))
        let onePage = engine.handle(.pin(Self.message.id, page: 2, pin: "4822", F.now(3)))
        #expect(
            engine.handle(.attemptsRecorded(Self.message.id, .done, F.now(3)))
                == [.checkPIN(Self.message.id, pin: "4822", hashes: [key(2, .a, .pin): hash2])])
        #expect(
            onePage.compactMap { if case let .recordAttempts(_, attempts) = $0 { attempts.wrong } else { nil } } == [2])
    }

    @Test func aMatchLatchesAndOpens() {
        var engine = F.engine([F.stored(Self.message)])
        _ = engine.handle(.pin(Self.message.id, page: nil, pin: "4821", F.now(1)))
        let effects = engine.handle(
            .pinChecked(
                Self.message.id, pin: "4821",
                matching: [key(2, .a, .pin), key(1, .a, .pin)], F.now(2)))
        #expect(effects.unlocks == [1])
        #expect(effects.pinResults == [.accepted(latched: [key(1, .a, .pin), key(2, .a, .pin)], opened: [1])])
        #expect(effects.pinResults.first?.text(timeZone: .current) == "PIN accepted: page 1 open")
        let state = engine.entries[Self.message.id]!.state
        #expect(state.pin.wrong == 0)
        #expect(state.pin.pending == nil)
        #expect(state.latched.keys.sorted() == [key(1, .a, .pin), key(2, .a, .pin)])
        #expect(effects.persisted.last == state)
        // The page that also waits for time opens at the time.
        #expect(engine.handle(.tick(F.now(1000))).unlocks == [2])
        // No PIN lock waits any more.
        #expect(
            engine.handle(.pin(Self.message.id, page: nil, pin: "4821", F.now(1001))).pinResults
                == [.failed("no PIN lock of this message is waiting")])
    }

    @Test func aMatchThatOpensNothingYetSaysSo() {
        var engine = F.engine([F.stored(Self.message)])
        _ = engine.handle(.pin(Self.message.id, page: 2, pin: "1111", F.now(1)))
        let effects = engine.handle(.pinChecked(Self.message.id, pin: "1111", matching: [key(2, .a, .pin)], F.now(2)))
        #expect(effects.pinResults == [.accepted(latched: [key(2, .a, .pin)], opened: [])])
        #expect(
            effects.pinResults.first?.text(timeZone: .current)
                == "PIN accepted (1 lock); the page still waits for its other locks")
    }

    /// The wait after the n-th wrong PIN in a row (each tried once the previous wait is over).
    static let waits: [(Int, Double?)] = [
        (1, nil), (2, nil), (3, nil), (4, nil), (5, 30), (6, 60), (7, 300),
        (8, 900), (9, 3600), (10, 3600),
    ]

    @Test func wrongPINsWaitLongerAndLonger() {
        var engine = F.engine([F.stored(Self.message)])
        var clock = 10.0
        for (n, wait) in Self.waits {
            let pin = String(format: "%04d", n)
            let attempt = engine.handle(.pin(Self.message.id, page: nil, pin: pin, F.now(clock)))
            #expect(
                attempt.compactMap { if case let .recordAttempts(_, attempts) = $0 { attempts.wrong } else { nil } }
                    == [n])
            let result = engine.handle(.pinChecked(Self.message.id, pin: pin, matching: [], F.now(clock)))
            let until = wait.map { F.t0.addingTimeInterval(clock + $0) }
            #expect(result.pinResults == [.wrong(wrong: n, refusedUntil: until)], "attempt \(n)")
            #expect(result.persisted.map(\.pin.refusedUntil) == [until])
            if let wait {
                // Refused until the wait is over, without counting.
                let early = engine.handle(
                    .pin(
                        Self.message.id, page: nil, pin: "9999",
                        F.now(clock + wait - 1)))
                #expect(early == [.reply(F.client, .pin(.refused(until: until!)))])
                #expect(engine.entries[Self.message.id]?.state.pin.wrong == n)
                #expect(
                    reasons(engine, Self.message.id, page: 1, now: F.now(clock + wait - 1))[.pin]
                        == "PIN attempts refused until \(LockReason.format(until!, F.utc, seconds: true))")
                clock += wait
            } else {
                clock += 1
            }
        }
    }

    @Test func theFirstRefusalIs30Seconds() {
        var engine = F.engine([F.stored(Self.message)])
        for n in 1...5 {
            let pin = "000\(n)"
            _ = engine.handle(.pin(Self.message.id, page: nil, pin: pin, F.now(Double(n))))
            _ = engine.handle(.pinChecked(Self.message.id, pin: pin, matching: [], F.now(Double(n))))
        }
        let refused = engine.handle(.pin(Self.message.id, page: nil, pin: "4821", F.now(6))).pinResults
        #expect(refused == [.refused(until: F.t0.addingTimeInterval(35))])
        #expect(
            reasons(engine, Self.message.id, page: 1, now: F.now(6))[.pin]
                == "PIN attempts refused until 2027-01-15 08:00:35 GMT")
        _ = engine.handle(.pin(Self.message.id, page: nil, pin: "4821", F.now(35)))
        #expect(
            engine.handle(.attemptsRecorded(Self.message.id, .done, F.now(35)))
                == [
                    .checkPIN(Self.message.id, pin: "4821", hashes: [key(1, .a, .pin): hash1, key(2, .a, .pin): hash2])
                ])
    }

    /// Disk full: the count cannot be made durable, so the PIN is never compared and costs nothing.
    @Test func anAttemptWhoseCountCannotBeRecordedIsRefusedUncompared() {
        var engine = F.engine([F.stored(Self.message)])
        _ = engine.handle(.pin(Self.message.id, page: nil, pin: "4821", F.now(1)))
        let effects = engine.handle(.attemptsRecorded(Self.message.id, .failed("No space left on device"), F.now(1)))
        #expect(!effects.contains { if case .checkPIN = $0 { true } else { false } })
        #expect(
            effects.pinResults == [
                .failed(
                    "cannot record the attempt durably (No space left on device); the PIN was neither counted nor compared: free some space and enter it again"
                )
            ])
        #expect(effects.persisted.isEmpty, "nothing was written, so nothing is undone on disk")
        #expect(engine.entries[Self.message.id]?.state.pin.pending == nil)
        #expect(engine.entries[Self.message.id]?.state.pin.wrong == 0)
        // The next attempt, the right PIN, goes ahead: it is not told another attempt is being checked.
        #expect(
            engine.handle(.pin(Self.message.id, page: nil, pin: "4821", F.now(2))).contains {
                if case let .recordAttempts(_, attempts) = $0 {
                    attempts.wrong == 1 && attempts.pending == "4821"
                } else {
                    false
                }
            })
    }

    /// Disk full the other way round: the ledger holds the count but a later state write fails. The state read back
    /// from disk does not bring back an attempt in flight or an older count: those are the ledger's and memory's.
    @Test func aFailedStateWriteLeavesTheAttemptsAsTheLedgerHasThem() {
        var onDisk = MessageState(ingestedAt: F.t0)
        onDisk.pin.pending = "9999"
        var stored = F.stored(Self.message)
        stored.state = onDisk
        var engine = F.engine([stored])
        _ = engine.handle(.pin(Self.message.id, page: nil, pin: "1111", F.now(1)))
        _ = engine.handle(.attemptsRecorded(Self.message.id, .done, F.now(1)))
        let concluded = engine.handle(.pinChecked(Self.message.id, pin: "1111", matching: [], F.now(1)))
        #expect(concluded.pinResults == [.wrong(wrong: 1, refusedUntil: nil)])
        _ = engine.handle(
            .persistFailed(Self.message.id, onDisk: onDisk, reason: "No space left on device", skipped: []))
        let state = engine.entries[Self.message.id]!.state
        #expect(state.pin.wrong == 1 && state.pin.pending == nil && state.pin.tried == ["1111"])
        #expect(
            engine.handle(.pin(Self.message.id, page: nil, pin: "4821", F.now(2))).contains {
                if case .recordAttempts = $0 { true } else { false }
            })
    }

    @Test func repeatingAWrongPINCostsNothing() {
        var engine = F.engine([F.stored(Self.message)])
        _ = engine.handle(.pin(Self.message.id, page: nil, pin: "1234", F.now(1)))
        let wrong = engine.handle(.pinChecked(Self.message.id, pin: "1234", matching: [], F.now(1)))
        #expect(wrong.pinResults == [.wrong(wrong: 1, refusedUntil: nil)])
        #expect(wrong.pinResults.first?.text(timeZone: .current) == "wrong PIN (1 of 5 attempts before a wait)")
        for second in 2...10 {
            let again = engine.handle(.pin(Self.message.id, page: nil, pin: "1234", F.now(Double(second))))
            #expect(again == [.reply(F.client, .pin(.alreadyTried))])
        }
        #expect(engine.entries[Self.message.id]?.state.pin.wrong == 1)
        #expect(engine.entries[Self.message.id]?.state.pin.tried == ["1234"])
    }

    static let failures: [(String, Int?, String, String)] = [
        ("five digits", nil, "12345", #"a PIN is exactly 4 digits, "12345" is not"#),
        ("letters", nil, "12a4", #"a PIN is exactly 4 digits, "12a4" is not"#),
        ("no such page", 9, "1234", "message \(F.id(1).short) has no page 9; it has 3"),
        ("page without PIN lock", 3, "1234", "page 3 has no PIN lock waiting"),
    ]

    @Test(arguments: failures)
    func refusedAttemptsCostNothing(_ name: String, _ page: Int?, _ pin: String, _ expected: String) {
        var engine = F.engine([F.stored(Self.message)])
        let effects = engine.handle(.pin(Self.message.id, page: page, pin: pin, F.now(1)))
        #expect(effects == [.reply(F.client, .pin(.failed(expected)))])
        #expect(engine.entries[Self.message.id]?.state.pin.wrong == 0)
    }

    @Test func unknownMessagesAndStaleAnswers() {
        var engine = F.engine([F.stored(Self.message)])
        #expect(
            engine.handle(.pin(F.id(42), page: nil, pin: "1234", F.now(1)))
                == [.reply(F.client, .failure(ResolveError.none(F.id(42).rawValue).description))])
        // An answer for a PIN that is not pending is ignored.
        #expect(engine.handle(.pinChecked(Self.message.id, pin: "1234", matching: [key(1, .a, .pin)], F.now(1))) == [])
        #expect(engine.entries[Self.message.id]?.state.latched == [:])
    }

    @Test func readSaysThePINIsNeeded() {
        let engine = F.engine([F.stored(Self.message)])
        #expect(reasons(engine, Self.message.id, page: 1, now: F.now(1)) == [.pin: "needs the PIN"])
    }
}
