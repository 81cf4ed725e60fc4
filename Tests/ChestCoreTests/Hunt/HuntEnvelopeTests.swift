import Foundation
import Testing
@testable import ChestCore

/// Messages on the broker: compact and stable on the wire, checked in shape on the way in.
@Suite struct HuntEnvelopeTests {
    @Test func everyKindRoundTripsThroughItsWireBytes() throws {
        for envelope in [HuntFixture.receiptEnvelope("red", id: 1), HuntFixture.statusEnvelope("red", id: 2),
                         HuntFixture.releaseEnvelope("finale", id: 3)] {
            let decoded = try HuntEnvelope.decode(envelope.bytes)
            #expect(decoded == envelope)
            #expect(decoded.signedBytes == envelope.signedBytes)
            #expect(!String(decoding: envelope.bytes, as: UTF8.self).contains("\n"))
        }
    }

    @Test func theSignedBytesAreTheWireBytesWithoutTheSignature() throws {
        let envelope = HuntFixture.statusEnvelope("red", id: 7)
        let signed = try #require(try JSONSerialization.jsonObject(with: envelope.signedBytes) as? [String: Any])
        #expect(signed["signature"] == nil)
        #expect(signed["key"] as? String == envelope.key)
        let wire = try #require(try JSONSerialization.jsonObject(with: envelope.bytes) as? [String: Any])
        #expect(wire["signature"] as? String == envelope.signature)
        #expect(Set(wire.keys) == ["format", "hunt", "sender", "kind", "id", "sent", "status", "key", "signature"])
    }

    static let invalid: [(String, @Sendable (inout HuntEnvelope) -> Void, String)] = [
        ("format", { $0.format = "chest-hunt" }, "not a chest hunt message"),
        ("hunt", { $0.hunt = "x" }, "hunt is not a hunt ID"),
        ("sender", { $0.sender = "red/+" }, "sender is not a team name"),
        ("id", { $0.id = 0 }, "1 or more"),
        ("key", { $0.key = "AAAA" }, "key is not"),
        ("unsigned", { $0.signature = nil }, "not signed"),
        ("two payloads", { $0.status = TeamStatus(online: true, pagesOpen: 0) }, "exactly one"),
        ("kind mismatch", { $0.kind = .status }, "status message without"),
        ("organiser receipt", { $0.sender = "organiser" }, "organiser sends no receipts"),
        ("receipt version", { $0.receipt?.version = 9 }, "not a chest receipt"),
    ]

    @Test(arguments: invalid.indices)
    func malformedEnvelopesAreRefused(index: Int) {
        let (label, edit, words) = Self.invalid[index]
        var envelope = HuntFixture.receiptEnvelope("red", id: 1)
        edit(&envelope)
        do {
            _ = try HuntEnvelope.decode(envelope.bytes)
            Issue.record("\(label) was accepted")
        } catch {
            #expect(error.description.contains(words), "\(label): \(error.description)")
        }
    }

    @Test func otherKindsAreCheckedToo() {
        var release = HuntFixture.releaseEnvelope("finale", id: 1)
        release.sender = "red"
        #expect(throws: HuntError("a release must come from the organiser")) { try HuntEnvelope.decode(release.bytes) }
        release = HuntFixture.releaseEnvelope("finale", id: 1, key: HuntFixture.key(1, count: 31))
        #expect(throws: HuntError("the release's name or key is malformed")) { try HuntEnvelope.decode(release.bytes) }
        let status = HuntFixture.statusEnvelope("red", id: 1, pages: -1)
        #expect(throws: HuntError("a status with a negative page count")) { try HuntEnvelope.decode(status.bytes) }
        #expect(throws: HuntError("not a chest hunt message: larger than 65536 bytes")) {
            try HuntEnvelope.decode(Data(repeating: 0x20, count: HuntEnvelope.sizeLimit + 1))
        }
        #expect(throws: HuntError.self) { try HuntEnvelope.decode(Data("[]".utf8)) }
    }

    @Test func positionsLeaveOnlyWhenTheHuntSharesThem() {
        let receipt = HuntFixture.receipt()
        let hidden = HuntEnvelope.shareable(receipt, sharePositions: false)
        #expect(hidden.signature == nil)
        #expect(hidden.evidence.fixes.count == 1)
        #expect(hidden.evidence.fixes.allSatisfy { $0.latitude == nil && $0.longitude == nil && $0.altitudeMSL == nil })
        #expect(hidden.evidence.fixes[0].eph == receipt.evidence.fixes[0].eph)
        let shared = HuntEnvelope.shareable(receipt, sharePositions: true)
        #expect(shared.evidence == receipt.evidence)
    }
}
