import ChestSeal
import Foundation
import Testing

@Suite struct HintSealTests {
    static func identity() throws -> Identity {
        try Identity.loadOrCreate(at: NSTemporaryDirectory() + "chest-hint-\(UUID())/identity.json")
    }

    @Test func onlyTheReaderItWasSealedToOpensIt() throws {
        let (reader, other) = (try Self.identity(), try Self.identity())
        let key = Data((0..<32).map { UInt8($0) })
        let sealed = try #require(HintSeal.seal(key, toReader: reader.publicKeyBase64))
        #expect(sealed.count == 32 + 48)
        #expect(HintSeal.open(sealed, with: reader) == key)
        #expect(HintSeal.open(sealed, with: other) == nil)
        var altered = sealed
        altered[altered.count - 1] ^= 1
        #expect(HintSeal.open(altered, with: reader) == nil)
    }

    @Test func aReaderKeyThatIsNotOneIsRefused() {
        #expect(HintSeal.seal(Data(count: 32), toReader: "not base64!") == nil)
        #expect(HintSeal.seal(Data(count: 32), toReader: Data(count: 16).base64EncodedString()) == nil)
    }
}
