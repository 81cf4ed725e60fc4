import Foundation
import Testing

@testable import ChestCore

/// OwnTracks transitions: the fields OwnTracks' tools read, and no position unless the hunt shares them.
@Suite struct HuntOwnTracksTests {
    @Test func aSharedTransitionCarriesTheLastFix() throws {
        let receipt = HuntFixture.receipt(page: 3, openedAt: 0.5)
        let event = OwnTracksTransition(receipt: receipt, huntName: "Old Town", team: "red", sharePositions: true)
        let object = try #require(try JSONSerialization.jsonObject(with: event.bytes) as? [String: Any])
        #expect(object["_type"] as? String == "transition")
        #expect(object["event"] as? String == "enter")
        #expect(object["desc"] as? String == "Old Town/Clue 1 p3")
        #expect(object["t"] as? String == "c")
        #expect(object["tid"] as? String == "re")
        #expect(object["tst"] as? Int == 1_800_000_000 && object["wtst"] as? Int == 1_800_000_000)
        #expect(object["lat"] as? Double == CoreFixture.tower.latitude)
        #expect(object["lon"] as? Double == CoreFixture.tower.longitude)
        #expect(object["acc"] as? Int == 5)
    }

    @Test func anUnsharedTransitionHasNoPosition() throws {
        let event = OwnTracksTransition(
            receipt: HuntFixture.receipt(), huntName: "Old Town", team: "b", sharePositions: false)
        let object = try #require(try JSONSerialization.jsonObject(with: event.bytes) as? [String: Any])
        #expect(object["lat"] as? Double == 0 && object["lon"] as? Double == 0)
        #expect(object["acc"] == nil)
        #expect(object["tid"] as? String == "b")
        #expect(!String(decoding: event.bytes, as: UTF8.self).contains("48.8"))
    }
}
