import ChestTestSupport
import Foundation
import Testing

@testable import ChestCore

/// Messages on the broker: compact and stable on the wire, checked in shape on the way in.
@Suite struct HuntEnvelopeTests {
    @Test func everyKindRoundTripsThroughItsWireBytes() throws {
        for envelope in [
            HuntFixture.receiptEnvelope("red", id: 1), HuntFixture.statusEnvelope("red", id: 2),
            HuntFixture.releaseEnvelope("finale", id: 3),
        ] {
            let decoded = try HuntEnvelope.decode(envelope.bytes)
            #expect(decoded == envelope)
            #expect(decoded.signedBytes == envelope.signedBytes)
            #expect(!String(decoding: envelope.bytes, as: UTF8.self).contains("\n"))
        }
    }

    @Test func theSignedBytesAreTheWireBytesWithoutTheSignature() throws {
        let envelope = HuntFixture.statusEnvelope("red", id: 7)
        let signed = try JSON(envelope.signedBytes)
        try #require(signed.object != nil)
        #expect(signed["signature"] == nil)
        #expect(signed["key"]?.string == envelope.key)
        let wire = try JSON(envelope.bytes)
        #expect(wire["signature"]?.string == envelope.signature)
        #expect(wire.keys == ["format", "hunt", "sender", "kind", "id", "sent", "status", "key", "signature"])
    }

    static let invalid: [(String, @Sendable (inout HuntEnvelope) -> Void, String)] = [
        ("format", { $0.format = "chest-hunt" }, "not a chest hunt message"),
        ("sender", { $0.sender = "red/+" }, "sender is not a team name"),
        ("id", { $0.id = 0 }, "1 or more"),
        ("key", { $0.key = "AAAA" }, "key is not"),
        ("unsigned", { $0.signature = nil }, "not signed"),
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

    /// What the wire may say and no `Body` can: the kind and the fields disagree, two bodies, none, a hunt that is
    /// not a hunt ID, a readerClaim beside another kind than a receipt.
    static let disagreeing: [(String, @Sendable (inout JSON) -> Void, String)] = [
        ("hunt", { $0["hunt"] = "x" }, "the message's hunt is not a hunt ID"),
        ("kind mismatch", { $0["kind"] = "status" }, "a status message without its status"),
        (
            "two payloads", { $0["status"] = ["online": true, "pagesOpen": 0] },
            "the message must carry exactly one of receipt, status, release, hintRequest, hint, adjust, schedule, said, start, ask, told, submit or verdict"
        ),
        ("no payload", { $0["receipt"] = nil }, "exactly one of"),
        ("unknown kind", { $0["kind"] = "gossip" }, "not a chest hunt message: \"kind\""),
    ]

    @Test(arguments: disagreeing.indices)
    func aWireFormWhoseKindAndFieldsDisagreeIsRefused(index: Int) throws {
        let (label, edit, words) = Self.disagreeing[index]
        var object = try JSON(HuntFixture.receiptEnvelope("red", id: 1).bytes)
        try #require(object.object != nil)
        edit(&object)
        let data = try object.data
        do {
            _ = try HuntEnvelope.decode(data)
            Issue.record("\(label) was accepted")
        } catch {
            #expect(error.description.contains(words), "\(label): \(error.description)")
        }
        // Inside another value (the board's journal keeps envelopes as payloads, but a Codable holder must refuse too).
        #expect(throws: DecodingError.self, "\(label)") {
            try ChestJSON.decoder().decode(HuntEnvelope.self, from: data)
        }
    }

    @Test func aReaderClaimBesideAStatusIsRefused() throws {
        var object = try JSON(HuntFixture.statusEnvelope("red", id: 1).bytes)
        try #require(object.object != nil)
        object["readerClaim"] = .string(HuntFixture.key(0x50, count: 64))
        #expect(throws: HuntError("only a receipt message carries a readerClaim beside its body")) {
            try HuntEnvelope.decode(object.data)
        }
    }

    @Test func theKindIsTheBodys() throws {
        let receipt = HuntFixture.receiptEnvelope("red", id: 1)
        #expect(receipt.kind == .receipt)
        var changed = receipt
        changed.body = .status(TeamStatus(online: true, pagesOpen: 0))
        #expect(changed.kind == .status)
        let wire = try JSON(changed.bytes)
        #expect(wire["kind"] == "status" && wire["receipt"] == nil && wire["status"] != nil)
    }

    @Test func otherKindsAreCheckedToo() throws {
        var release = HuntFixture.releaseEnvelope("finale", id: 1)
        release.sender = "red"
        #expect(throws: HuntError("a release must come from the organiser")) { try HuntEnvelope.decode(release.bytes) }
        var object = try JSON(HuntFixture.releaseEnvelope("finale", id: 1).bytes)
        try #require(object.object != nil)
        object["release"] = ["name": "finale", "key": .string(HuntFixture.key(1, count: 31))]
        #expect(throws: HuntError("not a chest hunt message: \"release.key\": the key is not 32 bytes in base64")) {
            try HuntEnvelope.decode(object.data)
        }
        release = HuntFixture.releaseEnvelope("a b", id: 1)
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
