import Foundation
import Testing

@testable import ChestCore

private typealias F = CoreFixture

/// Issue 25: a rebuilt quest (`compose --keep-ids`) re-imported by the reader replaces the older version from the
/// same sender, keeping what the reader earned where it still means the same (docs/QUEST.md "Rebuilding a quest").
@Suite struct EngineReplaceTests {
    static let later = F.north(of: F.tower, metres: 500)

    /// Page 1 open from the start; page 2 at the tower or by PIN; page 3 at the tower after a time.
    static func version(
        created: TimeInterval, page2: Coordinate = F.tower, page3Text: String = "three",
        key: UInt8 = 7
    ) -> Message {
        var message = F.message(
            1, title: "Walk",
            pages: [
                Page(text: "one"),
                Page(text: "two", setA: [.location(center: page2, radius: 30)], setB: [.pin(hash: "hash-\(created)")]),
                Page(
                    text: page3Text,
                    setA: [.location(center: F.tower, radius: 30), .time(F.t0.addingTimeInterval(-10))]),
            ])
        message.created = Date(timeIntervalSince1970: 1_790_000_000 + created)
        message.seal = Seal(publicKey: [UInt8](repeating: key, count: 32), signature: [UInt8](repeating: 9, count: 64))
        return message
    }

    /// An engine holding the first version with pages 1 and 2 open and page 3's time latched, in `chest`.
    static func engine(chest: ChestKind = .regular) -> Engine {
        var stored = F.stored(version(created: 0), chest: chest)
        stored.state.openPages = [
            OpenPage(page: 1, set: nil, at: F.t0, delivered: true),
            OpenPage(page: 2, set: .a, at: F.t0, delivered: true),
        ]
        stored.state.latched = [
            LockKey(page: 2, set: .a, kind: .location): F.t0, LockKey(page: 3, set: .a, kind: .time): F.t0,
        ]
        stored.state.pin.wrong = 2
        return F.engine([stored])
    }

    static func importing(_ message: Message) -> Engine.Input {
        .arrived(
            [
                Arrival(
                    source: .copy(Data("bytes".utf8), for: F.client), file: "/home/r/walk.locked",
                    content: .message(message, sentByYou: false))
            ], F.now(5))
    }

    @Test func aNewerVersionFromTheSenderReplacesItKeepingWhatStillHolds() throws {
        var engine = Self.engine(chest: .saved)
        let newer = Self.version(created: 60, page3Text: "three, corrected")
        let decided = engine.handle(Self.importing(newer))
        guard case let .change(.replace(admission, note))? = decided.first, decided.count == 1 else {
            Issue.record("expected one replace, got \(decided)")
            return
        }
        #expect(admission.stored.chest == .saved && admission.stored.message == newer)
        #expect(admission.stored.state.openPageNumbers == [1, 2])
        #expect(
            admission.stored.state.latched.keys.sorted() == [
                LockKey(page: 2, set: .a, kind: .location), LockKey(page: 3, set: .a, kind: .time),
            ])
        #expect(admission.stored.state.pin.wrong == 2 && admission.stored.state.ingestedAt == F.t0)
        #expect(
            note.hasPrefix("replaces the version of 2026-09-21T")
                && note.hasSuffix("(saved chest); pages 1, 2 stay open"), "\(note)")
        #expect(
            engine.entries[newer.id]?.message.created == Self.version(created: 0).created,
            "not replaced before it is on disk")

        let done = engine.handle(.changed(.replace(admission, note: note), .done, F.now(5)))
        #expect(done.contains(.emit(.ingested(newer.id, title: "Walk"))))
        var result = ImportResult(id: newer.id, title: "Walk")
        result.replaced = note
        #expect(done.contains(.reply(F.client, .message(result))))
        #expect(engine.entries[newer.id]?.message.pages[2].text == "three, corrected")
        #expect(engine.entries[newer.id]?.state.openPageNumbers == [1, 2])
    }

    /// A sealed page kept open keeps its text, but not its files: the new version's are sealed under a key the
    /// reader never had, so listing the old ones would promise files `read --save` cannot open.
    @Test func aPageKeptOpenNoLongerListsItsFiles() {
        var stored = F.stored(Self.version(created: 0))
        let key = Data(repeating: 1, count: 32).base64EncodedString()
        stored.state.openPages = [
            OpenPage(
                page: 1, set: nil, at: F.t0, delivered: true,
                content: SealedContent(
                    text: "one", attachments: [Attachment(name: "a.png", type: "image/png", size: 9)],
                    attachmentsKey: key))
        ]
        let state = Replacement.state(from: stored, for: Self.version(created: 60))
        #expect(state.openPages.first?.content == SealedContent(text: "one"))
    }

    @Test func aPageWhoseLocksChangedIsLockedAgainAndItsChangedLockUnlatched() {
        var engine = Self.engine()
        let moved = Self.version(created: 60, page2: Self.later)
        guard case let .change(.replace(admission, note))? = engine.handle(Self.importing(moved)).first else {
            Issue.record("no replace")
            return
        }
        #expect(admission.stored.state.openPageNumbers == [1])
        #expect(admission.stored.state.latched.keys.sorted() == [LockKey(page: 3, set: .a, kind: .time)])
        #expect(note.hasSuffix("page 1 stays open; page 2 changed and is locked again"), "\(note)")
    }

    @Test func anOlderOrSameAgeVersionOrAnotherSendersIsRefused() {
        var engine = Self.engine()
        let same = engine.handle(Self.importing(Self.version(created: 0, page3Text: "edited")))
        #expect(same.count == 1 && "\(same)".contains("not later, so it does not replace it"), "\(same)")
        let older = engine.handle(Self.importing(Self.version(created: -60, page3Text: "edited")))
        #expect("\(older)".contains("not later, so it does not replace it"))
        // Another key's message with the ID replaces nothing: it is another message, filed under a chest ID of its
        // own (docs/SECURITY.md "Round five (issue 61)").
        let stranger = engine.handle(Self.importing(Self.version(created: 60, key: 8)))
        guard case let .change(.store(admissions))? = stranger.first else {
            Issue.record("not stored: \(stranger)")
            return
        }
        #expect(admissions.map(\.stored.filing) == [1] && admissions.first?.stored.id != F.id(1))
        #expect(engine.entries[F.id(1)]?.message == Self.version(created: 0))
    }

    @Test func aReplacementThatCannotBeWrittenKeepsTheOlderVersion() {
        var engine = Self.engine()
        guard case let .change(change)? = engine.handle(Self.importing(Self.version(created: 60))).first else { return }
        let failed = engine.handle(.changed(change, .failed("No space left on device"), F.now(5)))
        #expect(failed == [.reply(F.client, .failure("cannot replace the message: No space left on device"))])
        #expect(engine.entries[F.id(1)]?.message == Self.version(created: 0))
    }

    /// A key derived for the older version's ciphertext, answered after the newer one replaced it, opens nothing.
    @Test func aKeyDerivedForTheOlderVersionOpensNothingInTheNewer() throws {
        func sealed(_ byte: UInt8, created: TimeInterval) -> Message {
            let slot = KeySlot.sealed(
                salt: [UInt8](repeating: 1, count: 16), cost: SealCost(passes: 2, memory: 1 << 26),
                wrapped: [UInt8](repeating: 2, count: 72))
            var message = F.message(
                2, title: "Sealed",
                pages: [
                    Page(
                        text: "", setA: [.release("finale")],
                        sealed: SealedPage(ciphertext: [UInt8](repeating: byte, count: 296), slots: [.a: slot]))
                ])
            message.created = Date(timeIntervalSince1970: 1_790_000_000 + created)
            return message
        }
        let old = sealed(1, created: 0)
        let new = sealed(3, created: 60)
        var engine = F.engine([F.stored(old)])
        let request = try #require(KeyRequest(id: old.id, page: 1, set: .a, of: old.pages[0].sealed!))
        guard case let .change(change)? = engine.handle(Self.importing(new)).first else {
            Issue.record("no replace")
            return
        }
        _ = engine.handle(.changed(change, .done, F.now(5)))
        let answered = engine.handle(.keyDerived(request, .opened(SealedContent(text: "the old text")), F.now(6)))
        #expect(answered.isEmpty && engine.entries[old.id]?.state.openPages.isEmpty == true, "\(answered)")
        #expect(engine.seal.contents[old.id] == nil, "the old text is not kept for the new version")
    }
}
