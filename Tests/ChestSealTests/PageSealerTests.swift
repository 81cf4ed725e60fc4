import ChestCore
import ChestSeal
import Foundation
import Testing

/// Format 2's cryptography with libsodium, still read: the organiser's cell and PIN open a page, nothing else does.
/// Format 3 has its own suite (FormatThreeSealTests).
@Suite struct PageSealerTests {
    static let id = MessageID("0123456789abcdef0123456789abcdef")!
    static let target = Coordinate(latitude: 47.371, longitude: 8.54)
    static let grid = CellGrid(center: target, radius: 20)
    static let cost = SealCost(passes: 1, memory: 8 << 20)
    static let text = "The key is under the third stone."

    static func page(number: Int = 1) -> Page {
        PageSealer.seal(
            text: text,
            setA: .init(
                locks: [.sealedLocation(grid), .sealedPIN], hidden: SearchArea(center: target, radius: 20), pin: "4821"),
            setB: .init(locks: [.time(Date(timeIntervalSince1970: 2_000_000_000))]),
            id: id, page: number, cost: cost, version: 2)
    }

    static func request(_ page: Page, number: Int = 1, id: MessageID = id, cell: Cell, pin: String) -> KeyRequest {
        KeyRequest(
            id: id, page: number, set: .a, secret: SealSecret.secret(cell: cell, pin: pin),
            slot: page.sealed!.slots[.a]!,
            ciphertext: page.sealed!.ciphertext, cell: cell, pin: pin)
    }

    @Test func theOrganisersCellAndPINOpenAndNothingElse() {
        let page = Self.page()
        let cell = Self.grid.cell(of: Self.target)
        guard case let .opened(content) = PageSealer.open(Self.request(page, cell: cell, pin: "4821")) else {
            Issue.record("the right cell and PIN did not open")
            return
        }
        #expect(content.text == Self.text)
        #expect(content.a == SearchArea(center: Self.target, radius: 20))
        #expect(PageSealer.open(Self.request(page, cell: Cell(x: cell.x + 1, y: cell.y), pin: "4821")) == .wrong)
        #expect(PageSealer.open(Self.request(page, cell: Cell(x: cell.x, y: cell.y - 1), pin: "4821")) == .wrong)
        #expect(PageSealer.open(Self.request(page, cell: cell, pin: "4822")) == .wrong)
    }

    @Test func aCiphertextOrSlotMovedToAnotherPageOrMessageDoesNotOpen() {
        let page = Self.page()
        let cell = Self.grid.cell(of: Self.target)
        #expect(PageSealer.open(Self.request(page, number: 2, cell: cell, pin: "4821")) == .wrong)
        #expect(
            PageSealer.open(
                Self.request(page, id: MessageID("ffffffffffffffffffffffffffffffff")!, cell: cell, pin: "4821"))
                == .wrong)
        // The right slot with another page's ciphertext: the key unwraps, the content does not open.
        var swapped = Self.request(page, cell: cell, pin: "4821")
        swapped.ciphertext = Self.page().sealed!.ciphertext
        guard case .damaged = PageSealer.open(swapped) else {
            Issue.record("a swapped ciphertext opened")
            return
        }
    }

    @Test func aGuardOpensItsPageAndASwappedGuardIsCaughtAtImport() throws {
        let page = Self.page()
        let guarded = KeyRequest(
            id: Self.id, page: 1, set: .b, secret: nil, slot: page.sealed!.slots[.b]!,
            ciphertext: page.sealed!.ciphertext, cell: nil, pin: nil)
        #expect(
            PageSealer.open(guarded)
                == .opened(SealedContent(text: Self.text, a: SearchArea(center: Self.target, radius: 20))))
        let other = Self.page(number: 2)
        var pages = [page, other]
        #expect(
            PageSealer.checkGuards(Message(id: Self.id, title: "t", from: "f", created: Date(), pages: pages)) == nil)
        let sealed = try #require(pages[0].sealed)
        pages[0].sealed = SealedPage(ciphertext: other.sealed!.ciphertext, slots: sealed.slots, version: sealed.version)
        #expect(
            PageSealer.checkGuards(Message(id: Self.id, title: "t", from: "f", created: Date(), pages: pages))?
                .contains("does not open this page's ciphertext") == true)
    }

    @Test func theFileCarriesNoTextNoPointAndNoPIN() throws {
        let directory = NSTemporaryDirectory() + "page-sealer-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let identity = try Identity.loadOrCreate(at: directory + "/identity.json")
        let message = Sealer.seal(
            Message(id: Self.id, title: "t", from: "f", created: Date(), pages: [Self.page()]), with: identity)
        let bytes = String(decoding: MessageFile.encode(message), as: UTF8.self)
        // Base64 may hold any four digits by chance; the PIN in any readable form may not.
        for secret in [Self.text, "third stone", "47.371", "8.54", "\"4821\"", "=4821", ": 4821"] {
            #expect(!bytes.contains(secret), "\(secret)")
        }
        let decoded = try MessageFile.decode(MessageFile.encode(message))
        #expect(decoded.pages == message.pages)
        try Sealer.verify(decoded)
        #expect(decoded.version == 2)
    }
}
