import ChestCore
import ChestTestSupport
import Foundation
import Testing

@testable import ChestSeal

/// Format 5's keys in lanes (docs/FORMAT.md "Format 5"): independent Argon2id runs side by side, each with its lane's
/// salt, and BLAKE2b of their results as the key.
@Suite struct KeyLanesTests {
    static let id = MessageID("0123456789abcdef0123456789abcdef")!
    static let lanes = SealCost(passes: 1, memory: 8 << 20, lanes: 2)

    static func page(cost: SealCost = lanes, version: Int = 5) -> Page {
        PageSealer.seal(
            text: "Behind the clock.", setA: .init(locks: [.sealedPIN], pin: "4821"), setB: .init(locks: []),
            id: id, page: 1, cost: cost, version: version)
    }

    /// `pages` in a message signed by a fresh identity, as `compose` writes it.
    static func signed(_ pages: [Page]) throws -> Message {
        let directory = NSTemporaryDirectory() + "key-lanes-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let identity = try Identity.loadOrCreate(at: directory + "/identity.json")
        return Sealer.seal(
            Message(id: id, title: "t", from: "f", created: Date(timeIntervalSince1970: 1_800_000_000), pages: pages),
            with: identity)
    }

    static func request(_ page: Page, pin: String) -> KeyRequest {
        KeyRequest(id: id, page: 1, set: .a, of: page.sealed!, pin: pin)!
    }

    /// The vector of docs/FORMAT.md "Format 5", computed outside Swift (Python's hashlib and libsodium's
    /// crypto_pwhash through ctypes): a reader in another language derives the same key.
    @Test func theKeyOfTwoLanesIsTheDocumentedConstruction() throws {
        let cost = SealCost(passes: 2, memory: 8 << 20, lanes: 2)
        let key = try #require(PageSealer.derive("4821", salt: Array(0..<16), cost: cost))
        #expect(
            key.map { String(format: "%02x", $0) }.joined()
                == "33e4924f084487909bb7ca33d4580da3dfb5f67d63df3856094de32c455debe1")
        // One lane is format 2 to 4's plain Argon2id, which the lanes' key is not.
        #expect(PageSealer.derive("4821", salt: Array(0..<16), cost: SealCost(passes: 2, memory: 8 << 20)) != key)
    }

    @Test func aPINKeyedInLanesOpensWithItsPINAndRoundTripsTheFile() throws {
        let page = Self.page()
        guard case .opened = PageSealer.open(Self.request(page, pin: "4821")) else {
            Issue.record("the right PIN did not open")
            return
        }
        #expect(PageSealer.open(Self.request(page, pin: "4822")) == .wrong)
        let message = try Self.signed([page])
        let text = String(decoding: MessageFile.encode(message), as: UTF8.self)
        #expect(text.contains("\"lanes\":2") || text.contains("\"lanes\" : 2"), "\(text)")
        let decoded = try MessageFile.decode(MessageFile.encode(message))
        #expect(decoded.version == 5)
        guard case let .sealed(_, cost, _)? = decoded.pages[0].sealed?.slots[.a] else {
            Issue.record("no sealed slot")
            return
        }
        #expect(cost == Self.lanes)
        // A one-lane slot says nothing of lanes.
        let single = MessageFile.encode(
            try Self.signed([Self.page(cost: SealCost(passes: 1, memory: 8 << 20), version: 3)]))
        #expect(!String(decoding: single, as: UTF8.self).contains("lanes"))
    }

    @Test func lanesInAFileOlderThanFormatFiveAreRefusedWithTheReason() throws {
        let message = try Self.signed([Self.page()])
        var json = try JSON(MessageFile.encode(message))
        try #require(json.object != nil)
        json["version"] = 4
        let older = try json.data
        #expect {
            _ = try MessageFile.decode(older)
        } throws: { error in
            "\(error)".contains("keyA.lanes needs format 5")
        }
        // Lanes over the reader's cap are refused too: memory counts every lane's.
        json["version"] = 5
        var pages = try #require(json["pages"]?.array)
        var slot = try #require(pages.first?["keyA"])
        try #require(slot.object != nil)
        slot["lanes"] = 2
        slot["memory"] = .integer(1 << 30)
        pages[0]["keyA"] = slot
        json["pages"] = .array(pages)
        #expect {
            _ = try MessageFile.decode(try json.data)
        } throws: { error in
            "\(error)".contains("exceed the reader's cap")
        }
    }

    @Test func aSetKeyedInLanesIsWrittenAsFormatFiveAndOneLaneAsBefore() {
        #expect(MessageFile.written(5, placeWithPIN: false, keyedInLanes: true) == 5)
        #expect(MessageFile.written(5, placeWithPIN: true, keyedInLanes: false) == 5)
        #expect(MessageFile.written(5, placeWithPIN: false, keyedInLanes: false) == 3)
        #expect(MessageFile.written(4, placeWithPIN: false, keyedInLanes: true) == 3)
        #expect(MessageFile.written(4, placeWithPIN: true, keyedInLanes: true) == 4)
        #expect(SealCost.Secret.pin.cost.lanes == 2 && SealCost.Secret.pin.cost(version: 4).lanes == 1)
        #expect(SealCost.Secret.place.cost.lanes == 1)
        // A reader waits for one lane; an attacker pays for both.
        let pin = SealCost.Secret.pin.cost
        #expect(pin.secondsPerKey < 3 && pin.secondsPerGuess == 2 * pin.secondsPerKey)
    }

    /// A place sealed with a PIN: nine keys on half-width cells in format 4 (files of the stop before format 5 still
    /// read), 16 on cells a third as wide in format 5; a slot with the other format's count is refused.
    @Test func aPlaceWithAPINHoldsNineKeysInFormatFourAndSixteenInFormatFive() throws {
        let point = Coordinate(latitude: 47.3712, longitude: 8.5423)
        let area = SearchArea(center: point, radius: 400)
        var generator = SystemRandomNumberGenerator()
        func sealed(_ version: Int) throws -> (Message, Double) {
            let block = CellGrid.keyBlock(version: version, withPIN: true)
            let grid = CellGrid(area: area, radius: 30, block: block, using: &generator)
            let set = PageSealer.SetDraft(
                locks: [.sealedLocation(grid), .sealedPIN], hidden: SearchArea(center: point, radius: 30),
                pin: "4821")
            let page = PageSealer.seal(
                text: "t", setA: set, setB: .init(locks: []), id: Self.id, page: 1,
                cost: SealCost(passes: 1, memory: 8 << 10), version: version)
            return (try Self.signed([page]), grid.width)
        }
        let coarse = CellGrid.width(over: area, radius: 30)
        for (version, keys, finer) in [(4, 9, 2.0), (5, 16, 3.0)] {
            let (message, width) = try sealed(version)
            #expect(abs(width - coarse / finer) < 0.6, "format \(version): \(width) against \(coarse)")
            let decoded = try MessageFile.decode(MessageFile.encode(message))
            guard case let .cells(_, _, wrapped)? = decoded.pages[0].sealed?.slots[.a] else {
                Issue.record("format \(version): no cells slot")
                continue
            }
            #expect(decoded.version == version && wrapped.count == keys)
        }
        // Format 4's nine keys under a file that says 5.
        var json = try JSON(MessageFile.encode(try sealed(4).0))
        try #require(json.object != nil)
        json["version"] = 5
        #expect {
            _ = try MessageFile.decode(try json.data)
        } throws: { error in
            "\(error)".contains("keyA must hold exactly 4 cell keys (32 with an answer, 16 with a PIN)")
        }
    }
}
