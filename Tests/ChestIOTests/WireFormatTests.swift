import ChestCore
import ChestSeal
import ChestTestSupport
import Foundation
import Testing

/// The canonical form that receipts and envelopes are signed in (docs/HUNTS.md "Canonical form"), with the test
/// vectors the document gives a second implementation: another encoder's bytes (`…00.000Z`, other key order,
/// whitespace) verify, since signatures and proofs are over the canonical re-encoding, not over the bytes sent.
@Suite struct WireFormatTests {
    /// The Ed25519 key pair of the 32-byte seed 0x2a…2a (libsodium's `crypto_sign_seed_keypair`).
    static let publicKey = "GX9rI+FshTLGq8g4+s1ep4m+DHaykgM0A5v6iz02jWE="
    static let secretKey = "KioqKioqKioqKioqKioqKioqKioqKioqKioqKioqKioZf2sj4WyFMsaryDj6zV6nib4MdrKSAzQDm/qLPTaNYQ=="
    /// The page key of the vectors: 32 bytes of 0x07.
    static let pageKey = [UInt8](repeating: 7, count: 32)

    static func identity() throws -> Identity {
        let path = NSTemporaryDirectory() + "chest-vector-\(UUID())/identity.json"
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(#"{"publicKey":"\#(publicKey)","secretKey":"\#(secretKey)"}"#.utf8).write(
            to: URL(fileURLWithPath: path))
        return try #require(try Identity.load(at: path))
    }

    /// The receipt of the vector, as another encoder might write it: keys in another order, indented, times with
    /// milliseconds written out.
    static let foreignReceipt = """
        {
          "version": 2, "format": "chest-receipt",
          "message": "0123456789abcdef0123456789abcdef",
          "messageSignature": "c2lnbmF0dXJl",
          "title": "Clue / 1 \\u00e9",
          "page": 1, "set": "A",
          "openedAt": "2027-01-15T08:00:00.000Z",
          "evidence": {"locks": ["location"], "fixes": [{"time": "2027-01-15T07:59:59.000Z", "mode": 3, "eph": 4.5,
                       "satellitesUsed": 9}], "trust": {"level": "hardware", "reasons": []},
                       "systemTime": "2027-01-15T08:00:00.250Z", "clock": "gps", "chestVersion": "1.0"},
          "reader": "\(publicKey)",
          "proof": "PROOF",
          "signature": "SIGNATURE"
        }
        """

    static let canonicalReceipt = """
        {"evidence":{"chestVersion":"1.0","clock":"gps","fixes":[{"eph":4.5,"mode":3,"satellitesUsed":9,"time":"2027-01-15T07:59:59Z"}],"locks":["location"],"systemTime":"2027-01-15T08:00:00.250Z","trust":{"level":"hardware","reasons":[]}},"format":"chest-receipt","message":"0123456789abcdef0123456789abcdef","messageSignature":"c2lnbmF0dXJl","openedAt":"2027-01-15T08:00:00Z","page":1,"proof":"PROOF","reader":"\(publicKey)","set":"A","title":"Clue / 1 é","version":2}
        """

    static let proofKey = "K89QjHKLCyPEgwC00/dZqXkrX5yJEWB3zUzkITsG2Sk="
    static let proof = "+cGsiPnak0PQMwzbPER/z2Ta6B0lwTRqbu4ttqWO4R4="
    static let signature = "efmtJjxIAxKaItgvqzbcURV7T2+Embv7fYnhFeSM1R3MDWZqitzgXrVAkzEYGyXVaodeHhZC1y6U3cdZi5ZfAA=="

    /// `object` as another encoder writes it: indented, members in another order.
    static func pretty(_ object: JSON) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted]
        return try encoder.encode(object)
    }

    static func foreign() throws -> UnlockReceipt {
        try UnlockReceipt.decode(
            Data(
                foreignReceipt.replacingOccurrences(of: "PROOF", with: proof)
                    .replacingOccurrences(of: "SIGNATURE", with: signature).utf8))
    }

    @Test func anotherEncodersReceiptVerifiesOverTheCanonicalForm() throws {
        let receipt = try Self.foreign()
        #expect(Data(ReceiptProof.key(pageKey: Self.pageKey)).base64EncodedString() == Self.proofKey)
        let canonical = Self.canonicalReceipt.replacingOccurrences(of: "PROOF", with: Self.proof)
        #expect(String(decoding: receipt.signedBytes, as: UTF8.self) == canonical)
        #expect(
            String(decoding: receipt.provenBytes, as: UTF8.self)
                == canonical.replacingOccurrences(of: #""proof":"\#(Self.proof)","#, with: ""))
        try ReceiptSigner.verify(receipt)
        #expect(ReceiptProof.isValid(receipt, pageKey: Self.pageKey))
        #expect(!ReceiptProof.isValid(receipt, pageKey: [UInt8](repeating: 8, count: 32)))
        // Deterministic: chest itself makes the same proof and signature from the same fields and keys.
        var unsigned = receipt
        unsigned.proof = nil
        unsigned.signature = nil
        let made = ReceiptProof.signed(unsigned, proofKey: Self.proofKey, identity: try Self.identity())
        #expect(made.proof == Self.proof && made.signature == Self.signature)
        // A field changed after signing is caught by both.
        var edited = receipt
        edited.openedAt = edited.openedAt.addingTimeInterval(-60)
        #expect(throws: ReceiptError.self) { try ReceiptSigner.verify(edited) }
        #expect(!ReceiptProof.isValid(edited, pageKey: Self.pageKey))
    }

    @Test func anEnvelopeWrittenWithMillisecondsAndAnotherKeyOrderVerifies() throws {
        let envelope = HuntSigner.sign(
            HuntEnvelope(
                hunt: GameEnvelopeVectorTests.hunt, sender: "red", id: 7,
                sent: Date(timeIntervalSince1970: 1_800_000_000),
                receipt: try Self.foreign()),
            secretKey: [UInt8](Data(base64Encoded: Self.secretKey)!))
        var object = try JSON(envelope.bytes)
        #expect(object["sent"] == "2027-01-15T08:00:00Z")
        object["sent"] = "2027-01-15T08:00:00.000Z"
        var receipt = try #require(object["receipt"])
        try #require(receipt.object != nil)
        receipt["openedAt"] = "2027-01-15T09:00:00.000+01:00"
        object["receipt"] = receipt
        let foreign = try Self.pretty(object)
        #expect(!String(decoding: foreign, as: UTF8.self).contains("08:00:00Z\""))
        let decoded = try HuntEnvelope.decode(foreign)
        #expect(HuntSigner.isValid(decoded))
        guard case let .receipt(receipt, _) = decoded.body else {
            Issue.record("not a receipt: \(decoded.kind)")
            return
        }
        try ReceiptSigner.verify(receipt)
    }

    /// The organiser's `schedule` and `said` envelopes of docs/HUNTS.md, signed with the vectors' key (the seed 0x2a…).
    static let scheduleBytes =
        #"{"format":"chest-hunt-message","hunt":"0123456789abcdef0123456789abcdef","id":1800000000000,"key":"GX9rI+FshTLGq8g4+s1ep4m+DHaykgM0A5v6iz02jWE=","kind":"schedule","schedule":{"ends":"2027-01-15T12:00:00.500Z","starts":"2027-01-15T09:00:00Z"},"sender":"organiser","sent":"2027-01-15T08:00:00Z"}"#
    static let scheduleSignature =
        "wE3UVcWxPG8eu+Rpfcg8GJb0CVxrpmqRt46y1Wb4qwt+6sRj6MANfH9dmB6DE5J6oBMG6ZGzhirvHegfnKybBQ=="
    static let saidBytes =
        #"{"format":"chest-hunt-message","hunt":"0123456789abcdef0123456789abcdef","id":1800000000001,"key":"GX9rI+FshTLGq8g4+s1ep4m+DHaykgM0A5v6iz02jWE=","kind":"said","said":{"text":"Meet at the fountain / \"noon\" é"},"sender":"organiser","sent":"2027-01-15T08:00:00.001Z"}"#
    static let saidSignature =
        "rGR7CbOCTAjX9hDK54labS6w8TwjczoFsEsYbEy4JcAzcHJIssUBDW9PY+11Hdcqstk5Yw90bcKs0ylsUA6aDA=="

    @Test func theOrganisersScheduleAndWordSignAsDocumented() throws {
        let key = [UInt8](Data(base64Encoded: Self.secretKey)!)
        let sent = Date(timeIntervalSince1970: 1_800_000_000)
        let schedule = HuntSigner.sign(
            HuntEnvelope(
                hunt: GameEnvelopeVectorTests.hunt, id: 1_800_000_000_000, sent: sent,
                schedule: HuntSchedule(
                    starts: sent.addingTimeInterval(3600),
                    ends: sent.addingTimeInterval(4 * 3600 + 0.5))),
            secretKey: key)
        #expect(String(decoding: schedule.signedBytes, as: UTF8.self) == Self.scheduleBytes)
        #expect(schedule.signature == Self.scheduleSignature)
        let said = HuntSigner.sign(
            HuntEnvelope(
                hunt: GameEnvelopeVectorTests.hunt, id: 1_800_000_000_001,
                sent: sent.addingTimeInterval(0.001), said: HuntSaid(text: "Meet at the fountain / \"noon\" é")),
            secretKey: key)
        #expect(String(decoding: said.signedBytes, as: UTF8.self) == Self.saidBytes)
        #expect(said.signature == Self.saidSignature)
        // Another encoder's form of the same schedule (times with an offset, other key order) verifies.
        var object = try JSON(schedule.bytes)
        try #require(object.object != nil)
        object["schedule"] = ["ends": "2027-01-15T13:00:00.500+01:00", "starts": "2027-01-15T09:00:00.000Z"]
        let decoded = try HuntEnvelope.decode(try Self.pretty(object))
        #expect(HuntSigner.isValid(decoded) && decoded.kind == .schedule)
        var forged = decoded
        forged.body = .schedule(HuntSchedule(starts: sent, ends: sent.addingTimeInterval(4 * 3600 + 0.5)))
        #expect(!HuntSigner.isValid(forged))
    }
}

/// The test vectors of docs/HUNTS.md for the organiser's `adjust` and `hint` envelopes, signed with the vectors' key.
@Suite struct GameEnvelopeVectorTests {
    static let hunt = HuntID("0123456789abcdef0123456789abcdef")!
    static let sent = Date(timeIntervalSince1970: 1_800_000_000)
    static var secretKey: [UInt8] { [UInt8](Data(base64Encoded: WireFormatTests.secretKey)!) }

    @Test func anAdjustmentSignsTheseBytes() throws {
        let envelope = HuntSigner.sign(
            HuntEnvelope(
                hunt: Self.hunt, id: 1_800_000_000_000, sent: Self.sent,
                adjust: HuntAdjustment(team: "red", points: -5, reason: "crossed a field of crops")),
            secretKey: Self.secretKey)
        #expect(String(decoding: envelope.signedBytes, as: UTF8.self) == Self.adjustBytes)
        #expect(envelope.signature == Self.adjustSignature)
        let decoded = try HuntEnvelope.decode(envelope.bytes)
        #expect(HuntSigner.isValid(decoded) && decoded == envelope)
    }

    @Test func aHintAnswerSignsTheseBytes() throws {
        let hint = HuntHint(
            team: "red", message: Self.hunt.rawValue, page: 1, hint: 2, cost: 3,
            sealed: Data(repeating: 0x5a, count: HuntHint.sealedBytes).base64EncodedString())
        #expect(hint.hintID == "0123456789abcdef01234567-1-2")
        let envelope = HuntSigner.sign(
            HuntEnvelope(hunt: Self.hunt, id: 1_800_000_000_001, sent: Self.sent, hint: hint),
            secretKey: Self.secretKey)
        #expect(String(decoding: envelope.signedBytes, as: UTF8.self) == Self.hintBytes)
        #expect(envelope.signature == Self.hintSignature)
        #expect(HuntSigner.isValid(try HuntEnvelope.decode(envelope.bytes)))
    }

    static let adjustBytes =
        #"{"adjust":{"points":-5,"reason":"crossed a field of crops","team":"red"},"format":"chest-hunt-message","hunt":"0123456789abcdef0123456789abcdef","id":1800000000000,"key":"GX9rI+FshTLGq8g4+s1ep4m+DHaykgM0A5v6iz02jWE=","kind":"adjust","sender":"organiser","sent":"2027-01-15T08:00:00Z"}"#
    static let adjustSignature =
        "og5I3Rr3oCbtdvQoNx2953ZYVuXC3gXYFbsyS+Yh8OIyspxQf2CBdmeS2uA3RI35LQ1wNTn6IaxEI/282ZVOAg=="
    static let hintBytes =
        #"{"format":"chest-hunt-message","hint":{"cost":3,"hint":2,"message":"0123456789abcdef0123456789abcdef","page":1,"sealed":"WlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlo=","team":"red"},"hunt":"0123456789abcdef0123456789abcdef","id":1800000000001,"key":"GX9rI+FshTLGq8g4+s1ep4m+DHaykgM0A5v6iz02jWE=","kind":"hint","sender":"organiser","sent":"2027-01-15T08:00:00Z"}"#
    static let hintSignature =
        "Yk6ZKb/fxSK1dRdOlojk0A4imYNI2u561llPrjAGBXugILOrWPHbvHfwEUu8Tn2QPnyFye7HbK3UGBC5Mcq/Bg=="
}
