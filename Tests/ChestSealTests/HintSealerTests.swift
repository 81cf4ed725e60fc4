import ChestCore
import ChestSeal
import Foundation
import Testing

/// A hint's text sealed under its own key (docs/FORMAT.md "Hints"), and the signed `hintRequest` and `hint`
/// envelopes (docs/HUNTS.md "Hints"), with the test vectors the documents give a second implementation.
@Suite struct HintSealerTests {
    static let id = MessageID("0123456789abcdef0123456789abcdef")!
    /// The Ed25519 key pair of the 32-byte seed 0x2a…2a, as docs/HUNTS.md's other vectors.
    static let publicKey = "GX9rI+FshTLGq8g4+s1ep4m+DHaykgM0A5v6iz02jWE="
    static let secretKey = "KioqKioqKioqKioqKioqKioqKioqKioqKioqKioqKioZf2sj4WyFMsaryDj6zV6nib4MdrKSAzQDm/qLPTaNYQ=="

    @Test func aHintsTextRoundTripsUnderItsOwnKeyOnly() throws {
        let (hint, key) = HintSealer.seal(
            "Look under the bench — the green one.", id: Self.id, page: 2, hint: 1, after: 600,
            cost: nil, keyInFile: true)
        #expect(hint.key == key && hint.after == 600 && hint.cost == nil)
        #expect((hint.ciphertext.count - 40) % 256 == 0)
        #expect(
            HintSealer.open(hint.ciphertext, key: key, id: Self.id, page: 2, hint: 1, version: 3)
                == "Look under the bench — the green one.")
        // Another key, another hint's place, another page or another format open nothing.
        #expect(
            HintSealer.open(
                hint.ciphertext, key: [UInt8](repeating: 1, count: 32), id: Self.id, page: 2, hint: 1, version: 3)
                == nil)
        #expect(HintSealer.open(hint.ciphertext, key: key, id: Self.id, page: 2, hint: 2, version: 3) == nil)
        #expect(HintSealer.open(hint.ciphertext, key: key, id: Self.id, page: 1, hint: 1, version: 3) == nil)
        #expect(HintSealer.open(hint.ciphertext, key: key, id: Self.id, page: 2, hint: 1, version: 2) == nil)
        // A hunt's hint without a delay keeps its key out of the file.
        let (huntHint, huntKey) = HintSealer.seal(
            "Ask the baker.", id: Self.id, page: 1, hint: 1, after: nil, cost: 3, keyInFile: false)
        #expect(huntHint.key == nil && huntHint.cost == 3 && huntKey.count == 32)
    }

    @Test func theFormatVectorOfAHint() {
        let ciphertext = HintSealer.encrypt(
            "Look under the bench.", key: [UInt8](repeating: 7, count: 32),
            nonce: [UInt8](repeating: 1, count: 24), id: Self.id, page: 1, hint: 1, version: 3)
        #expect(
            SealSecret.hintData(Self.id, page: 1, hint: 1, version: 3)
                == "chest-v3|hint|0123456789abcdef0123456789abcdef|1|1")
        #expect(ciphertext.count == 24 + 256 + 16)
        #expect(Data(ciphertext).base64EncodedString() == Self.vectorCiphertext)
        #expect(
            HintSealer.open(
                ciphertext, key: [UInt8](repeating: 7, count: 32), id: Self.id, page: 1, hint: 1, version: 3)
                == "Look under the bench.")
    }

    /// The vector's `ciphertext`, docs/FORMAT.md "Hints".
    static let vectorCiphertext =
        "AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBylZ3KLGYz6Ufp/jsTCsi49Mi4AXQHG6P03rRVgjHWzJfzm9UrK1tYVLhSvW8rsEA3wDQpTBtnzsNr17iahZ+4tvynsH/YBUgBm6I4G56AiIX1c1Mt9X9OSd8435MKg3bLNwm23Gmly94uwTZnEtqcFjmEWP7FgDXV8NfYLogE+LZeSAkyTIFSDqtYgMI+eEwGoXT0ObfcUziXFW+/xU8GFCDEzLkoKdi98lL4FIAaiKjglHaFAK0JAeWZYUyUQFTyDSP061GtzeVNDMn9S564V+08I0TsTxLuVWCyhnLqZUiw4oAxe+VxWWwAE6A4kkJhAXI8tFfBokdYDCy//5Eq7qIGk5rX6EJ/6q/ln9Nes4="

    static let requestBytes =
        #"{"format":"chest-hunt-message","hintRequest":{"hint":1,"message":"0123456789abcdef0123456789abcdef","page":2},"hunt":"00112233445566778899aabbccddeeff","id":12,"key":"GX9rI+FshTLGq8g4+s1ep4m+DHaykgM0A5v6iz02jWE=","kind":"hintRequest","sender":"red","sent":"2027-01-15T08:00:00Z"}"#
    static let requestSignature =
        "T8rOXwmQiPazQvIZR07TrrdaBjHcBPWag/0JWLK2XfrHNS+yz8nROs4zln0ytSd2Rt9sfdymhWmSRUCpDLg8Dg=="
    static let hintBytes =
        #"{"format":"chest-hunt-message","hint":{"cost":3,"hint":1,"message":"0123456789abcdef0123456789abcdef","page":2,"sealed":"CQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQk=","team":"red"},"hunt":"00112233445566778899aabbccddeeff","id":1800000000500,"key":"GX9rI+FshTLGq8g4+s1ep4m+DHaykgM0A5v6iz02jWE=","kind":"hint","sender":"organiser","sent":"2027-01-15T08:00:00Z"}"#
    static let hintSignature =
        "N9XPBg5URO2D3e1ItKIthhgRmMN4YXaOJnTbqwBOm0n2cmCzyi5XcoLIS07p8HsYcNYAQxihBEgL10I2AlMqAQ=="

    @Test func theEnvelopeVectors() throws {
        let sent = Date(timeIntervalSince1970: 1_800_000_000)
        let team = [UInt8](Data(base64Encoded: Self.secretKey)!)
        let request = HuntSigner.sign(
            HuntEnvelope(
                hunt: HuntID("00112233445566778899aabbccddeeff")!, sender: "red", id: 12, sent: sent,
                hintRequest: HuntHintRequest(message: Self.id, page: 2, hint: 1)),
            secretKey: team)
        #expect(String(decoding: request.signedBytes, as: UTF8.self) == Self.requestBytes)
        #expect(request.signature == Self.requestSignature)
        #expect(HuntSigner.isValid(try HuntEnvelope.decode(request.bytes)))
        let sealed = Data(repeating: 9, count: 80).base64EncodedString()
        let hint = HuntSigner.sign(
            HuntEnvelope(
                hunt: HuntID("00112233445566778899aabbccddeeff")!, id: 1_800_000_000_500, sent: sent,
                hint: HuntHint(
                    team: "red", message: Self.id.rawValue, page: 2, hint: 1, cost: 3,
                    sealed: sealed)),
            secretKey: team)
        #expect(String(decoding: hint.signedBytes, as: UTF8.self) == Self.hintBytes)
        #expect(hint.signature == Self.hintSignature)
        guard case let .hint(given) = hint.body else {
            Issue.record("not a hint: \(hint.kind)")
            return
        }
        #expect(
            HuntTopic.hint(hunt: hint.hunt, team: "red", hintID: given.hintID)
                == "chest/00112233445566778899aabbccddeeff/organiser/hint/red/0123456789abcdef01234567-2-1")
        #expect(HuntSigner.isValid(try HuntEnvelope.decode(hint.bytes)))
    }
}
