import Foundation
import Testing

@testable import ChestCore

private typealias F = CoreFixture

/// The engine decides what enters and leaves the chest; the daemon only carries it out and reports back.
@Suite struct EngineChestTests {
    static func timeLocked(_ n: UInt8, title: String = "Test") -> Message {
        F.message(n, title: title, pages: [Page(text: "later", setA: [.time(F.t0.addingTimeInterval(100))])])
    }

    static func arrival(_ message: Message, path: String = "/chest/incoming/m.locked") -> Arrival {
        Arrival(source: .staged(path: path), file: "m.locked", content: .message(message, sentByYou: false))
    }

    @Test func anArrivalIsStoredBeforeItJoinsTheEngineAndIsAnnounced() throws {
        var engine = F.engine([])
        let message = Self.timeLocked(1)
        let decided = engine.handle(.arrived([Self.arrival(message)], F.now(1)))
        guard case let .change(.store(admissions)) = try #require(decided.first) else {
            Issue.record("expected a store, got \(decided)")
            return
        }
        #expect(decided.count == 1)
        #expect(admissions.map(\.stored.id) == [message.id])
        #expect(admissions.first?.source == .staged(path: "/chest/incoming/m.locked"))
        #expect(engine.entries.isEmpty, "not in the engine until it is on disk")

        let stored = engine.handle(.changed(.store(admissions), .done, F.now(1)))
        #expect(stored.first == .emit(.ingested(message.id, title: "Test")))
        #expect(engine.entries[message.id]?.state.ingestedAt == F.now(1).wall)
    }

    @Test func aStoreThatFailsLeavesNothingBehindAndTellsTheImporter() {
        var engine = F.engine([])
        let message = Self.timeLocked(1)
        let client = ClientID(7)
        let arrival = Arrival(
            source: .copy(Data("bytes".utf8), for: client), file: "/home/a/m.locked",
            content: .message(message, sentByYou: false))
        let decided = engine.handle(.arrived([arrival], F.now(1)))
        guard case let .change(change) = decided.first else {
            Issue.record("expected a change, got \(decided)")
            return
        }
        let failed = engine.handle(.changed(change, .failed("No space left on device"), F.now(1)))
        #expect(failed == [.reply(client, .failure("cannot store the message: No space left on device"))])
        #expect(engine.entries.isEmpty)
        let stored = engine.handle(.changed(change, .done, F.now(1)))
        #expect(stored.contains(.reply(client, .message(ImportResult(id: message.id, title: "Test")))))
    }

    @Test func refusedFilesAreSetAsideAndAnnouncedWithTheirReason() {
        var engine = F.engine([])
        let refused = Arrival(
            source: .staged(path: "/chest/incoming/bad.locked"), file: "bad.locked",
            content: .refused("not a chest message: the file is not UTF-8"))
        #expect(
            engine.handle(.arrived([refused], F.now(1))) == [
                .reject(path: "/chest/incoming/bad.locked", reason: "not a chest message: the file is not UTF-8"),
                .emit(.rejected(file: "bad.locked", reason: "not a chest message: the file is not UTF-8")),
            ])
    }

    @Test func duplicatesAreRefusedWhetherStoredOrInTheSameBatch() {
        let message = Self.timeLocked(1, title: "Old")
        var engine = F.engine([F.stored(message, chest: .saved)])
        let again = engine.handle(.arrived([Self.arrival(message, path: "/i/a")], F.now(1)))
        #expect(
            again.first
                == .reject(path: "/i/a", reason: "message \(message.id.short) \"Old\" is already in the saved chest"))

        var impostor = Self.timeLocked(1, title: "Impostor")
        impostor.from = "Mallory"
        // Sealed by another key: the same sender's key would make it a version of the message (EngineReplaceTests).
        // Another key's message is another message: stored under the next chest ID, not refused.
        impostor.seal?.publicKey = [UInt8](repeating: 8, count: 32)
        let claimed = engine.handle(.arrived([Self.arrival(impostor, path: "/i/b")], F.now(1)))
        let filed = StoredMessage(
            message: impostor, state: MessageState(ingestedAt: F.now(1).wall), chest: .regular, sentByYou: false,
            filing: 1)
        #expect(claimed == [.change(.store([Admission(stored: filed, source: .staged(path: "/i/b"))]))])
        #expect(filed.id == message.id.filed(1, key: [UInt8](repeating: 8, count: 32)) && filed.id != message.id)

        let fresh = Self.timeLocked(2)
        let twice = engine.handle(
            .arrived([Self.arrival(fresh, path: "/i/c"), Self.arrival(fresh, path: "/i/d")], F.now(1)))
        #expect(
            twice.contains(
                .reject(path: "/i/d", reason: "the same message (\(fresh.id.short)) arrived twice at once; kept one")))
        #expect(
            twice.contains { if case let .change(.store(admissions)) = $0 { admissions.count == 1 } else { false } })
    }

    @Test func theSavedChestHoldsFiftyMessages() {
        let saved = (1...UInt8(ChestKind.savedLimit)).map { F.stored(Self.timeLocked($0), chest: .saved) }
        let extra = Self.timeLocked(200)
        var engine = F.engine(saved + [F.stored(extra)])
        let client = ClientID(3)
        #expect(
            engine.handle(.request(client, ControlRequest.save(id: extra.id.rawValue), F.now(1)))
                == [
                    .reply(
                        client,
                        .failure("the saved chest is full (50 messages); delete one first with `chest delete ID`"))
                ])
        #expect(
            engine.handle(.request(client, ControlRequest.save(id: saved[0].id.rawValue), F.now(1)))
                == [.reply(client, .failure("\(saved[0].id.short) is already in the saved chest"))])

        _ = engine.handle(.changed(.remove(saved[0].id, from: .saved, for: client), .done, F.now(1)))
        let move = engine.handle(.request(client, ControlRequest.save(id: extra.id.rawValue), F.now(2)))
        #expect(move == [.change(.move(extra.id, from: .regular, to: .saved, for: client))])
        #expect(engine.entries[extra.id]?.chest == .regular, "moved only once the file is")
        let moved = engine.handle(.changed(.move(extra.id, from: .regular, to: .saved, for: client), .done, F.now(2)))
        #expect(moved.first == .emit(.saved(extra.id, title: "Test")))
        #expect(engine.entries[extra.id]?.chest == .saved)
    }

    @Test func aDeleteThatFailsKeepsTheMessage() {
        let message = Self.timeLocked(1)
        var engine = F.engine([F.stored(message)])
        let client = ClientID(4)
        let change = ChestChange.remove(message.id, from: .regular, for: client)
        #expect(engine.handle(.request(client, ControlRequest.delete(id: "01"), F.now(1))) == [.change(change)])
        #expect(
            engine.handle(.changed(change, .failed("Permission denied"), F.now(1)))
                == [.reply(client, .failure("cannot delete \(message.id.short): Permission denied"))])
        #expect(engine.entries[message.id] != nil)
        #expect(engine.handle(.changed(change, .done, F.now(1))).first == .emit(.deleted(message.id, title: "Test")))
        #expect(engine.entries.isEmpty)
        #expect(engine.handle(.tick(F.now(100))).unlocks == [])
    }

    @Test func unsaveMovesBackOnceTheFileHasMoved() {
        let message = Self.timeLocked(1)
        var engine = F.engine([F.stored(message, chest: .saved), F.stored(Self.timeLocked(2))])
        let client = ClientID(5)
        let move = ChestChange.move(message.id, from: .saved, to: .regular, for: client)
        #expect(engine.handle(.request(client, ControlRequest.unsave(id: "01"), F.now(1))) == [.change(move)])
        #expect(engine.entries[message.id]?.chest == .saved, "moved only once the file is")
        #expect(
            engine.handle(.changed(move, .done, F.now(1))) == [
                .emit(.unsaved(message.id, title: "Test")), .reply(client, .message(ImportResult(message))),
            ])
        #expect(engine.entries[message.id]?.chest == .regular)
        #expect(
            engine.handle(.request(client, ControlRequest.unsave(id: "02"), F.now(1)))
                == [.reply(client, .failure("\(F.id(2).short) is not in the saved chest"))])
    }

    @Test func undeleteBringsTheLastDeletedMessageBackWithItsState() {
        let message = Self.timeLocked(1)
        let other = Self.timeLocked(2, title: "Other")
        var stored = F.stored(message, chest: .saved)
        stored.state.pin.wrong = 4
        stored.state.pin.tried = ["1111", "2222", "3333", "4444"]
        var engine = F.engine([stored, F.stored(other)])
        let client = ClientID(6)
        #expect(
            engine.handle(.request(client, ControlRequest.undelete(id: nil), F.now(1)))
                == [.reply(client, .failure("nothing to undelete: no message was deleted in the last 24 h"))])
        for id in [message.id, other.id] {
            let from: ChestKind = id == message.id ? .saved : .regular
            _ = engine.handle(.changed(.remove(id, from: from, for: client), .done, F.now(2)))
        }
        #expect(engine.recentlyDeleted.map(\.stored.id) == [message.id, other.id])
        // Without an ID, the last one deleted; with a prefix, that one, back in the regular chest.
        var restored = stored
        restored.chest = .regular
        #expect(
            engine.handle(.request(client, ControlRequest.undelete(id: "01"), F.now(3)))
                == [.change(.restore(restored, for: client))])
        guard
            case .change(.restore(let last, _))? = engine.handle(
                .request(client, ControlRequest.undelete(id: nil), F.now(3))
            ).first
        else {
            Issue.record("expected a restore")
            return
        }
        #expect(last.id == other.id)
        #expect(
            engine.handle(.changed(.restore(restored, for: client), .failed("No space left on device"), F.now(3)))
                == [.reply(client, .failure("cannot undelete \(message.id.short): No space left on device"))])
        #expect(engine.entries[message.id] == nil)
        let back = engine.handle(.changed(.restore(restored, for: client), .done, F.now(3)))
        #expect(
            back.suffix(2) == [
                .emit(.undeleted(message.id, title: "Test")), .reply(client, .message(ImportResult(message))),
            ])
        #expect(engine.entries[message.id]?.state.pin == stored.state.pin)
        #expect(engine.entries[message.id]?.chest == .regular)
        #expect(engine.recentlyDeleted.map(\.stored.id) == [other.id])
        #expect(engine.handle(.tick(F.now(100))).unlocks == [1], "its locks are evaluated again")
        // A day later nothing is left to bring back.
        #expect(
            engine.handle(.request(client, ControlRequest.undelete(id: nil), F.now(2 + 86_401)))
                == [.reply(client, .failure("nothing to undelete: no message was deleted in the last 24 h"))])
    }

    @Test func onlyTheLastTenDeletedMessagesAreKept() {
        let messages = (1...12).map { Self.timeLocked(UInt8($0)) }
        var engine = F.engine(messages.map { F.stored($0) })
        for message in messages {
            _ = engine.handle(.changed(.remove(message.id, from: .regular, for: ClientID(1)), .done, F.now(1)))
        }
        #expect(engine.recentlyDeleted.map(\.stored.id) == messages.suffix(DeletedMessage.limit).map(\.id))
    }

    @Test func anIDPrefixNamesOneMessageOrSaysWhyNot() {
        let engine = F.engine([F.stored(Self.timeLocked(0x12)), F.stored(Self.timeLocked(0x13))])
        #expect(engine.resolve("12ab") == .success(F.id(0x12)))
        #expect(engine.resolve("12AB") == .success(F.id(0x12)))
        #expect(engine.resolve(F.id(0x13).rawValue) == .success(F.id(0x13)))
        #expect(engine.resolve("1") == .failure(.ambiguous("1", [F.id(0x12), F.id(0x13)])))
        #expect(engine.resolve("ff") == .failure(.none("ff")))
        #expect(engine.resolve("xyz") == .failure(.notAnID("xyz")))
        #expect(engine.resolve("") == .failure(.notAnID("")))
        #expect(engine.resolve(nil) == .failure(.notAnID("")))
        #expect(
            ResolveError.ambiguous("1", [F.id(0x12), F.id(0x13)]).description
                == "1 matches 2 messages (12ababab, 13ababab…); type more of the ID")
    }

    @Test func aMessageDeletedBeforeARestartCanBeUndeletedAfterIt() {
        let message = F.message(pages: [Page(text: "p", setA: [.pin(hash: "h")])])
        var state = MessageState(ingestedAt: F.t0)
        state.pin.wrong = 2
        let deleted = DeletedMessage(
            stored: StoredMessage(message: message, state: state, chest: .regular, sentByYou: false),
            at: F.now(-60).wall)
        var engine = F.engine([])
        _ = engine.handle(.deletedRestored([deleted]))
        let client = ClientID(5)
        #expect(
            engine.handle(.request(client, ControlRequest.undelete(id: nil), F.now(1)))
                == [.change(.restore(deleted.stored, for: client))])
        // One whose message is in the chest again is not offered.
        var again = F.engine([deleted.stored])
        _ = again.handle(.deletedRestored([deleted]))
        #expect(
            again.handle(.request(client, ControlRequest.undelete(id: nil), F.now(1)))
                == [.reply(client, .failure("nothing to undelete: no message was deleted in the last 24 h"))])
    }

    @Test func watchersBeyondTheLimitAreRefusedAndRoomComesBackWhenOneLeaves() {
        var engine = F.engine([])
        for number in 0..<Engine.maximumWatchers {
            #expect(
                engine.handle(.request(ClientID(100 + number), ControlRequest.watch, F.now(1))) == [
                    .reply(ClientID(100 + number), .subscribed)
                ])
        }
        let extra = ClientID(99)
        #expect(
            engine.handle(.request(extra, ControlRequest.watch, F.now(2)))
                == [.reply(extra, .failure("chestd already has 32 watchers; stop one first"))])
        #expect(!engine.subscribers.contains(extra))
        _ = engine.handle(.clientGone(ClientID(100)))
        #expect(engine.handle(.request(extra, ControlRequest.watch, F.now(3))) == [.reply(extra, .subscribed)])
    }

    @Test func aWatcherHearsTheUndeliveredUnlocksOnceAndLaterUnlocksAreDelivered() {
        let message = F.message(pages: [
            Page(text: "one", setA: [.time(F.t0.addingTimeInterval(10))]),
            Page(text: "two", setA: [.time(F.t0.addingTimeInterval(20))]),
        ])
        var engine = F.engine([F.stored(message)])
        let opened = engine.handle(.tick(F.now(10)))
        #expect(
            opened.flattened.contains(
                .notify(Unlock(message, OpenPage(page: 1, set: .a, at: F.now(10).wall, delivered: false)))))
        #expect(engine.undelivered.map(\.page) == [1])

        let watcher = ClientID(9)
        let subscribed = engine.handle(.request(watcher, ControlRequest.watch, F.now(11)))
        #expect(
            subscribed.prefix(2) == [
                .reply(watcher, .subscribed),
                .send(
                    watcher,
                    .unlocked(Unlock(message, OpenPage(page: 1, set: .a, at: F.now(10).wall, delivered: false)))),
            ])
        #expect(engine.undelivered == [])

        // With a watcher, an unlock is persisted open, announced, then persisted delivered.
        let second = engine.handle(.tick(F.now(20)))
        #expect(second.persisted.map { $0.openPages.map(\.delivered) } == [[true, false], [true, true]])
        #expect(engine.subscribers == [watcher])
        _ = engine.handle(.clientGone(watcher))
        #expect(engine.subscribers.isEmpty)
    }
}

/// What cannot be saved is not kept: a page whose opening the disk refused closes again (the daemon reports
/// nothing of it), and opens once a later save succeeds.
@Suite struct EnginePersistFailureTests {
    @Test func aPageWhoseOpeningCouldNotBeSavedClosesAndOpensAgainLater() {
        let message = F.message(pages: [Page(text: "soon", setA: [.time(F.t0.addingTimeInterval(10))])])
        var engine = F.engine([F.stored(message)])
        let opening = engine.handle(.tick(F.now(10)))
        #expect(opening.unlocks == [1])
        #expect(engine.entries[message.id]?.state.openPageNumbers == [1])
        // The unlock is announced only once its write succeeded: it is in that write's `then`, not beside it.
        #expect(!opening.contains { if case .emit(.unlocked) = $0 { true } else { false } })
        guard case let .persist(_, _, then) = opening.first(where: { if case .persist = $0 { true } else { false } })
        else {
            Issue.record("no write in \(opening)")
            return
        }
        #expect(then.unlocks == [1])

        // Nothing of what was not saved is announced, and no one was waiting for an answer.
        #expect(
            engine.handle(.persistFailed(message.id, onDisk: nil, reason: "No space left on device", skipped: then))
                == [])
        #expect(engine.entries[message.id]?.state.openPageNumbers == [])
        #expect(engine.entries[message.id]?.state.latched == [:])
        #expect(engine.undelivered == [])

        // The lock is waiting again: the next look at the clock opens the page, and asks to save it.
        let again = engine.handle(.tick(F.now(11)))
        #expect(again.unlocks == [1])
        #expect(again.persisted.count == 1)
    }
}
