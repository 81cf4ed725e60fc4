import ChestCore
import ChestSeal
import Foundation
import Testing

/// Format 6 (docs/FORMAT.md "Format 6", docs/HUNTS.md "The start key"): every page of a hunt with a start is sealed
/// under the hunt's start key as well as its own locks. A set's secret without the start key opens nothing (not even
/// a guard, which holds the inner key only), the start key without the secret opens nothing, and both together give
/// the page key the hunt file records for proofs.
@Suite struct StartSealTests {
    static let id = MessageID("0123456789abcdef0123456789abcdef")!
    static let cost = SealCost(passes: 1, memory: 8 << 20)
    static let start = [UInt8](repeating: 5, count: 32)
    static let text = "The hunt is on: go to the fountain."

    static func sealed(pin: String? = "4821") -> (page: Page, key: [UInt8]) {
        let setA = PageSealer.SetDraft(locks: pin == nil ? [] : [.sealedPIN], pin: pin)
        return PageSealer.sealed(
            text: text, setA: setA, setB: .init(locks: []), id: id, page: 1, cost: cost,
            version: MessageFile.startVersion, start: start)
    }

    static func request(_ page: Page, pin: String?, start: [UInt8]?) -> KeyRequest? {
        KeyRequest(id: id, page: 1, set: .a, of: page.sealed!, pin: pin, start: start)
    }

    @Test func thePINOpensOnlyWithTheStartKeyAndGivesTheRecordedPageKey() throws {
        let (page, key) = Self.sealed()
        #expect(page.sealed?.version == MessageFile.startVersion && page.sealed?.needsStart == true)
        #expect(Self.request(page, pin: "4821", start: nil) == nil, "no request can be made before the start key")
        var pageKey: [UInt8]?
        var keys = DerivedKeys()
        let right = try #require(Self.request(page, pin: "4821", start: Self.start))
        #expect(PageSealer.open(right, keys: &keys, pageKey: &pageKey) == .opened(SealedContent(text: Self.text)))
        #expect(pageKey == key, "the page key the board checks proofs with")
        // The PIN's slot alone gives the inner key, which is not the page key.
        var withoutStart = right
        withoutStart.start = nil
        guard case .damaged = PageSealer.open(withoutStart) else {
            Issue.record("the PIN alone opened a format 6 page")
            return
        }
        var otherStart = right
        otherStart.start = [UInt8](repeating: 6, count: 32)
        guard case .damaged = PageSealer.open(otherStart) else {
            Issue.record("another start key opened the page")
            return
        }
        #expect(PageSealer.open(try #require(Self.request(page, pin: "4822", start: Self.start))) == .wrong)
    }

    @Test func aGuardHoldsOnlyTheInnerKey() throws {
        let (page, key) = Self.sealed(pin: nil)
        guard case let .guarded(inner)? = page.sealed?.slots[.a] else {
            Issue.record("a page without locks has no guard")
            return
        }
        #expect(inner != key, "the key in the clear is not the page key")
        #expect(PageSealer.startPageKey(inner: inner, start: Self.start, id: Self.id, page: 1, version: 6) == key)
        #expect(PageSealer.startPageKey(inner: inner, start: Self.start, id: Self.id, page: 2, version: 6) != key)
        let request = try #require(Self.request(page, pin: nil, start: Self.start))
        #expect(PageSealer.open(request) == .opened(SealedContent(text: Self.text)))
        var withoutStart = request
        withoutStart.start = nil
        guard case .damaged = PageSealer.open(withoutStart) else {
            Issue.record("a format 6 guard opened without the start key")
            return
        }
    }

    @Test func aFormatSixFileReadsBackAndItsGuardsAreNotCheckedAtImport() throws {
        let (page, _) = Self.sealed(pin: nil)
        var message = Message(
            id: Self.id, title: "hunt", from: "organiser", created: Date(timeIntervalSince1970: 1_800_000_000),
            pages: [page])
        message = Sealer.seal(
            message, with: try Identity.loadOrCreate(at: NSTemporaryDirectory() + "/start-seal-\(UUID()).key"))
        let decoded = try MessageFile.decode(MessageFile.encode(message))
        #expect(decoded.version == 6 && decoded.pages[0].sealed?.needsStart == true)
        #expect(PageSealer.checkGuards(decoded) == nil, "a guard's inner key cannot be checked without the start key")
    }
}
