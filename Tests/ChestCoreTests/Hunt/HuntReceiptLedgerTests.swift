import ChestTestSupport
import Foundation
import Testing

@testable import ChestCore

/// The receipt ledger (`<chest>/hunt-receipts.json`): its pages are `PageLink`s, written "MESSAGEID#PAGE" as before.
@Suite struct HuntReceiptLedgerTests {
    /// A ledger as chestd wrote it when `sent` was a set of "ID#PAGE" strings.
    static let old =
        #"{"hunt":"0123456789abcdef0123456789abcdef","sent":["0101010101010101010101010101010a#2","01010101010101010101010101010101#1"],"session":1800000000,"since":"2027-01-15T08:00:00Z"}"#

    @Test func anOldLedgerReadsAsPageLinksAndWritesTheSameForm() throws {
        let ledger = try ChestJSON.decoder().decode(HuntReceiptLedger.self, from: Data(Self.old.utf8))
        #expect(ledger.hunt == HuntFixture.huntID)
        #expect(ledger.session == 1_800_000_000)
        let first = PageLink(message: MessageID("01010101010101010101010101010101")!, page: 1)
        let second = PageLink(message: MessageID("0101010101010101010101010101010a")!, page: 2)
        #expect(ledger.sent == [first, second])
        let written = try JSON(ChestJSON.encoder().encode(ledger))
        #expect(
            Set(written["sent"]?.strings ?? []) == [
                "01010101010101010101010101010101#1", "0101010101010101010101010101010a#2",
            ])
        #expect(written["hunt"]?.string == HuntFixture.huntID.rawValue)
    }

    @Test func aPageInTheLedgerIsNotOwedAgain() {
        var stored = CoreFixture.stored(CoreFixture.message(pages: []))
        var open = OpenPage(page: 1, set: .a, at: CoreFixture.t0.addingTimeInterval(10), delivered: true)
        open.evidence = HuntFixture.receipt().evidence
        stored.state.openPages = [open]
        var ledger = HuntReceiptLedger(hunt: HuntFixture.huntID, since: CoreFixture.t0)
        #expect(ledger.owed([stored]).map(\.1.page) == [1])
        ledger.sent.insert(PageLink(message: stored.id, page: 1))
        #expect(ledger.owed([stored]).isEmpty)
    }
}
