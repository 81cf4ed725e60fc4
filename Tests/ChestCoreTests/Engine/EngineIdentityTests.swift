import Foundation
import Testing

@testable import ChestCore

private typealias F = CoreFixture
private typealias H = HuntFixture

/// A message is its sender's key and its ID (docs/SECURITY.md "Round five (issue 61)"): another key's message with
/// an ID the chest holds is taken in under a chest ID of its own, whatever uses an ID names the sender too, and a
/// joined hunt refuses, or sets aside, a message that has one of its IDs without its organiser's seal.
@Suite struct EngineIdentityTests {
    static let stranger: [UInt8] = [UInt8](repeating: 8, count: 32)

    /// `message` sealed again by another key, as a stranger's copy of a file is: same ID, title, pages and name.
    static func resealed(_ message: Message, key: [UInt8] = stranger) -> Message {
        var copy = message
        copy.seal = Seal(publicKey: key, signature: [UInt8](repeating: 10, count: 64))
        return copy
    }

    static func timeLocked(_ n: UInt8, at seconds: Double = 100) -> Message {
        F.message(n, title: "Clue \(n)", pages: [Page(text: "later", setA: [.time(F.t0.addingTimeInterval(seconds))])])
    }

    static func arrival(_ message: Message, _ name: String) -> Arrival {
        Arrival(
            source: .staged(path: "/chest/incoming/\(name)"), file: name, content: .message(message, sentByYou: false))
    }

    /// Arrivals decided, then every change the engine asks for carried out, and those its conclusions ask for in
    /// turn, as chestd does; the effects without the changes themselves, and the changes.
    static func arrive(_ engine: inout Engine, _ arrivals: [Arrival], at seconds: Double) -> (
        effects: [Engine.Effect], changes: [ChestChange]
    ) {
        var effects: [Engine.Effect] = []
        var changes: [ChestChange] = []
        var pending = engine.handle(.arrived(arrivals, F.now(seconds)))
        while !pending.isEmpty {
            let effect = pending.removeFirst()
            if case let .change(change) = effect {
                changes.append(change)
                pending += engine.handle(.changed(change, .done, F.now(seconds)))
            } else {
                effects.append(effect)
            }
        }
        return (effects, changes)
    }

    /// An engine with `messages`, joined to the fixtures' hunt, whose organiser key seals `CoreFixture`'s messages.
    static func joined(_ messages: [StoredMessage], ledger: HuntReceiptLedger? = nil) -> Engine {
        var engine = F.engine(messages)
        _ = engine.handle(
            .hunt(
                .joined(H.hunt().joinFile(team: TeamName("red")!), ledger: ledger, releases: [:], outbox: 0), F.now(0)))
        return engine
    }

    static func setAside(_ changes: [ChestChange]) -> [MessageID] {
        changes.compactMap { if case let .setAside(id, _, _) = $0 { id } else { nil } }
    }

    static func receipts(_ effects: [Engine.Effect]) -> [UnlockReceipt] {
        effects.flattened.compactMap { if case let .hunt(.postReceipt(receipt, _, _, _)) = $0 { receipt } else { nil } }
    }

    @Test func anotherKeysMessageWithATakenIDIsFiledUnderAChestIDOfItsOwn() throws {
        let genuine = Self.timeLocked(1)
        let copy = Self.resealed(genuine)
        var engine = F.engine([])
        let first = Self.arrive(&engine, [Self.arrival(copy, "copy.locked")], at: 1)
        #expect(first.changes.count == 1 && engine.entries[genuine.id]?.message == copy, "the copy came first")

        let second = Self.arrive(&engine, [Self.arrival(genuine, "genuine.locked")], at: 2)
        let filed = genuine.id.filed(1, key: genuine.seal!.publicKey)
        #expect(second.effects.contains(.emit(.ingested(filed, title: "Clue 1"))), "\(second.effects)")
        #expect(engine.entries.count == 2 && engine.entries[filed]?.message == genuine)
        #expect(engine.entries.message(genuine.identity)?.id == filed)
        #expect(engine.entries.message(copy.identity)?.id == genuine.id)
        #expect(Set(engine.entries.all(withID: genuine.id).map(\.id)) == [genuine.id, filed])
        // A chest ID names its own message: the shared ID names the one filed under it, the other its chest ID.
        #expect(engine.resolve(genuine.id.rawValue) == .success(genuine.id))
        #expect(engine.resolve(filed.short) == .success(filed))

        // Each is flagged with the other, and the filed one names its own ID.
        let items = engine.list(chest: .regular)
        #expect(items.first { $0.id == filed }?.messageID == genuine.id)
        #expect(items.first { $0.id == filed }?.sameID == [genuine.id])
        #expect(items.first { $0.id == genuine.id }?.sameID == [filed])
        #expect(items.first { $0.id == genuine.id }?.messageID == nil)

        // Either again is a duplicate of itself; the genuine one's newer version replaces it under its chest ID.
        let again = Self.arrive(&engine, [Self.arrival(genuine, "again.locked")], at: 3)
        #expect(
            again.effects.first
                == .reject(
                    path: "/chest/incoming/again.locked",
                    reason: "message \(filed.short) \"Clue 1\" is already in the regular chest"))
        var newer = genuine
        newer.created = genuine.created.addingTimeInterval(60)
        let replaced = Self.arrive(&engine, [Self.arrival(newer, "newer.locked")], at: 4)
        guard case let .replace(admission, _)? = replaced.changes.first else {
            Issue.record("not replaced: \(replaced)")
            return
        }
        #expect(admission.stored.id == filed && engine.entries[filed]?.message == newer)
        #expect(engine.entries[genuine.id]?.message == copy, "the copy is not the genuine one's older version")

        // Both arriving at once: each kept, under chest IDs of their own.
        var fresh = F.engine([])
        let both = Self.arrive(&fresh, [Self.arrival(copy, "a.locked"), Self.arrival(genuine, "b.locked")], at: 1)
        #expect(both.changes.count == 1 && fresh.entries.count == 2, "\(both)")
    }

    @Test func aSquatterOnTheFiledIDOnlyMovesItToTheNext() {
        let genuine = Self.timeLocked(1)
        let key = genuine.seal!.publicKey
        // Someone who knows the genuine message's ID and key holds its ID and its first filed ID.
        var squatter = F.message(9, title: "Squat", pages: [Page(text: "x")])
        squatter = Self.resealed(squatter)
        squatter.id = genuine.id.filed(1, key: key)
        var engine = F.engine([F.stored(Self.resealed(genuine)), F.stored(squatter)])
        _ = Self.arrive(&engine, [Self.arrival(genuine, "genuine.locked")], at: 1)
        #expect(engine.entries.message(genuine.identity)?.id == genuine.id.filed(2, key: key))
        #expect(engine.entries.count == 3)
    }

    @Test func aChestIDIsReadBackFromItsFileName() {
        let genuine = Self.timeLocked(1)
        let filed = genuine.id.filed(3, key: genuine.seal!.publicKey)
        #expect(StoredMessage.filing(of: genuine, named: filed) == 3)
        #expect(StoredMessage.filing(of: genuine, named: genuine.id) == 0)
        #expect(StoredMessage.filing(of: genuine, named: F.id(2)) == 0, "a file renamed by hand reads as its own ID")
        #expect(
            genuine.id.filed(1, key: genuine.seal!.publicKey) != genuine.id.filed(1, key: Self.stranger),
            "the filed IDs are the sender's own")
    }

    @Test func aFiledMessagesKeysAreAskedWithTheIDSealedInIt() throws {
        let message = Self.resealed(EngineSealTests.message(setA: [.sealedPIN]), key: [UInt8](repeating: 7, count: 32))
        var engine = F.engine([F.stored(Self.resealed(message))])
        _ = Self.arrive(&engine, [Self.arrival(message, "m.locked")], at: 1)
        let filed = try #require(engine.entries.message(message.identity)).id
        #expect(filed != message.id)
        _ = engine.handle(.pin(filed, page: nil, pin: "4821", F.now(2)))
        let request = try #require(
            EngineSealTests.requests(engine.handle(.attemptsRecorded(filed, .done, F.now(2)))).first)
        #expect(request.id == filed && request.sealedID == message.id)
        #expect(request.contentData == SealSecret.contentData(message.id, page: 1, version: request.version))
    }

    @Test func anAfterLockWaitsForItsOwnSendersMessage() {
        let first = F.message(1, title: "First", pages: [Page(text: "one")])
        let second = F.message(
            2, title: "Second", pages: [Page(text: "two", setA: [.after(PageLink(message: F.id(1), page: 1))])])
        // Another key's message with the first one's ID, open from the start, opens nothing of the second.
        var engine = F.engine([F.stored(Self.resealed(first)), F.stored(second)])
        #expect(engine.entries[second.id]?.state.isOpen(page: 1) == false)
        #expect(
            engine.read(second.id, now: F.now(0))?.pages[0].sets[0].locks[0].reason
                == .waitsForMessage(PageLink(message: F.id(1), page: 1)))
        // The first one of its own sender, filed under another chest ID, does.
        let effects = engine.ingest([F.stored(first)], F.now(1))
        #expect(effects.unlockEvents.map(\.id) == [second.id])
    }

    @Test func aJoinedHuntRefusesACopyOfItsMessageAndSetsAsideOneThatCameFirst() throws {
        let genuine = Self.timeLocked(1, at: -10)
        let copy = Self.resealed(genuine)
        // The copy first: nothing says yet that its ID is the hunt's, so it is a stranger's message, and sends no
        // receipt for its page that opens.
        var engine = Self.joined([])
        let first = Self.arrive(&engine, [Self.arrival(copy, "copy.locked")], at: 1)
        #expect(first.effects.unlocks == [1])
        #expect(Self.receipts(first.effects).isEmpty, "a stranger's message is not the hunt's")

        // The organiser's: taken in beside it, its receipt sent under the ID sealed in it, and the copy set aside.
        let second = Self.arrive(&engine, [Self.arrival(genuine, "genuine.locked")], at: 2)
        let filed = genuine.id.filed(1, key: genuine.seal!.publicKey)
        #expect(Self.setAside(second.changes) == [genuine.id])
        #expect(Self.receipts(second.effects).map(\.message) == [genuine.id])
        let reason =
            "message \(genuine.id.short) (\"Clue 1\" from Alice) has the ID of a message of the hunt \"Old Town\" but is not sealed by the hunt's organiser: a copy re-signed by another key"
        #expect(
            second.effects.contains(
                .emit(.rejected(file: "\(genuine.id.rawValue).locked", reason: reason + "; set aside"))))
        #expect(engine.entries.count == 1 && engine.entries[filed]?.message == genuine)
        // The ID the organiser gave out still names it, filed as it is under another chest ID.
        #expect(engine.resolve(genuine.id.rawValue) == .success(filed))
        #expect(engine.resolve(genuine.id.short) == .success(filed))

        // The copy again, or another one: refused.
        let again = Self.arrive(
            &engine, [Self.arrival(Self.resealed(genuine, key: [UInt8](repeating: 9, count: 32)), "c.locked")], at: 3)
        #expect(again.effects.first == .reject(path: "/chest/incoming/c.locked", reason: reason), "\(again.effects)")
        #expect(again.changes.isEmpty)
    }

    @Test func theImportOfTheOrganisersMessageSaysWhatItSetAside() throws {
        let genuine = Self.timeLocked(1)
        var engine = Self.joined([F.stored(Self.resealed(genuine))])
        let arrival = Arrival(
            source: .copy(Data("bytes".utf8), for: F.client), file: "/home/a/g.locked",
            content: .message(genuine, sentByYou: false))
        let decided = engine.handle(.arrived([arrival], F.now(1)))
        guard case let .change(change)? = decided.first else {
            Issue.record("\(decided)")
            return
        }
        let concluded = engine.handle(.changed(change, .done, F.now(1)))
        let result = concluded.compactMap { if case let .reply(_, .message(result)) = $0 { result } else { nil } }.first
        #expect(result?.note?.contains("set aside \(genuine.id.short)") == true, "\(String(describing: result))")
        #expect(result?.note?.contains("filed as \(genuine.id.filed(1, key: genuine.seal!.publicKey).short)") == true)
    }

    @Test func joiningOrLoadingSetsAsideTheCopiesOfTheHuntsMessages() {
        let genuine = Self.timeLocked(1)
        let copy = Self.resealed(genuine)
        let other = Self.resealed(Self.timeLocked(2))
        let filed = StoredMessage(
            message: genuine, state: MessageState(ingestedAt: F.t0), chest: .regular, sentByYou: false, filing: 1)
        // Both in the chest before the join: the join sets the copy aside, and a stranger's other message stays.
        var engine = F.engine([F.stored(copy), filed, F.stored(other)])
        let join = engine.handle(
            .hunt(.joined(H.hunt().joinFile(team: TeamName("red")!), ledger: nil, releases: [:], outbox: 0), F.now(1)))
        #expect(join.contains { if case .change(.setAside(genuine.id, .regular, _)) = $0 { true } else { false } })
        #expect(Self.setAside(join.compactMap { if case let .change(c) = $0 { c } else { nil } }) == [genuine.id])

        // At a start, joined before the chest is read: the same once the chest is loaded.
        var restarted = Engine(gpsServer: "localhost:2947")
        _ = restarted.handle(
            .hunt(.joined(H.hunt().joinFile(team: TeamName("red")!), ledger: nil, releases: [:], outbox: 0), F.now(0)))
        let loaded = restarted.handle(.loaded([F.stored(copy), filed], refused: [], F.now(1)))
        #expect(Self.setAside(loaded.compactMap { if case let .change(c) = $0 { c } else { nil } }) == [genuine.id])
    }

    @Test func anIDTheHuntNamedIsTheHuntsWithoutItsMessage() throws {
        let genuine = Self.timeLocked(1)
        let copy = Self.resealed(genuine)
        // A receipt of it was sent before: the genuine message has been deleted since.
        let ledger = HuntReceiptLedger(hunt: H.huntID, since: F.t0, sent: [PageLink(message: genuine.id, page: 1)])
        var engine = Self.joined([], ledger: ledger)
        let refused = Self.arrive(&engine, [Self.arrival(copy, "copy.locked")], at: 1)
        #expect(refused.changes.isEmpty && engine.entries.isEmpty, "\(refused)")

        // The board named another in a hint it gave: its copy, in the chest, is set aside.
        let second = Self.timeLocked(2)
        var named = Self.joined([F.stored(Self.resealed(second))])
        let kept = [HintRef(id: second.id, page: 1, hint: 1).key: Data(repeating: 5, count: 32).base64EncodedString()]
        let restored = named.handle(.hunt(.hintKeysKept(kept), F.now(1)))
        #expect(Self.setAside(restored.compactMap { if case let .change(c) = $0 { c } else { nil } }) == [second.id])
        #expect(named.huntIDs.contains(second.id))
        #expect(named.huntClaimRefusal(of: Self.resealed(second, key: [UInt8](repeating: 4, count: 32))) != nil)
        // Outside a hunt, nothing is the hunt's.
        #expect(F.engine([]).huntClaimRefusal(of: copy) == nil)
    }

    @Test func theOrganisersFiledMessageTakesTheBoardsHintKey() {
        var page = Page(text: "one", setA: [.time(F.t0.addingTimeInterval(1000))])
        page.hints = [PageHint(ciphertext: [UInt8](repeating: 1, count: 40), key: nil, after: nil, cost: 2)]
        let genuine = F.message(1, pages: [page])
        let filed = StoredMessage(
            message: genuine, state: MessageState(ingestedAt: F.t0), chest: .regular, sentByYou: false, filing: 1)
        // Not joined when the copy came: the copy is not the hunt's, so the board's key is tried on the genuine one.
        var engine = F.engine([F.stored(Self.resealed(genuine)), filed])
        _ = engine.handle(
            .hunt(.joined(H.hunt().joinFile(team: TeamName("red")!), ledger: nil, releases: [:], outbox: 0), F.now(1)))
        let kept = [HintRef(id: genuine.id, page: 1, hint: 1).key: Data(repeating: 5, count: 32).base64EncodedString()]
        let tried = engine.handle(.hunt(.hintKeysKept(kept), F.now(2)))
        let openings = tried.compactMap { if case let .openHint(opening) = $0 { opening } else { nil } }
        #expect(openings.map(\.id) == [filed.id] && openings.map(\.sealedID) == [genuine.id], "\(tried)")
    }
}
