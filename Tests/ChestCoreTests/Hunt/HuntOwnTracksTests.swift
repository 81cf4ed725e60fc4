import ChestTestSupport
import Foundation
import Testing

@testable import ChestCore

/// OwnTracks transitions: the fields OwnTracks' tools read, and no position unless the hunt shares them.
@Suite struct HuntOwnTracksTests {
    @Test func aSharedTransitionCarriesTheLastFix() throws {
        let receipt = HuntFixture.receipt(page: 3, openedAt: 0.5)
        let event = OwnTracksTransition(receipt: receipt, huntName: "Old Town", team: "red", sharePositions: true)
        let object = try JSON(event.bytes)
        #expect(object["_type"]?.string == "transition")
        #expect(object["event"]?.string == "enter")
        #expect(object["desc"]?.string == "Old Town/Clue 1 p3")
        #expect(object["t"]?.string == "c")
        #expect(object["tid"]?.string == "re")
        #expect(object["tst"]?.int == 1_800_000_000 && object["wtst"]?.int == 1_800_000_000)
        #expect(object["lat"]?.double == CoreFixture.tower.latitude)
        #expect(object["lon"]?.double == CoreFixture.tower.longitude)
        #expect(object["acc"]?.int == 5)
    }

    @Test func anUnsharedTransitionHasNoPosition() throws {
        let event = OwnTracksTransition(
            receipt: HuntFixture.receipt(), huntName: "Old Town", team: "b", sharePositions: false)
        let object = try JSON(event.bytes)
        #expect(object["lat"]?.double == 0 && object["lon"]?.double == 0)
        #expect(object["acc"] == nil)
        #expect(object["tid"]?.string == "b")
        #expect(!String(decoding: event.bytes, as: UTF8.self).contains("48.8"))
    }
}
