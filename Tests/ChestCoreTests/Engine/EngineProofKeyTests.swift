import Foundation
import Testing

@testable import ChestCore

private typealias F = CoreFixture
private typealias S = EngineSealTests

/// The proof key comes with the derived key that opened the page, as one input (docs/HUNTS.md "Proof of opening"):
/// it is kept with the page that key opens, and an answer that opens nothing leaves none behind.
@Suite struct EngineProofKeyTests {
    @Test func theProofKeyComesWithTheKeyAndStaysWithThePageItOpens() throws {
        let message = S.message()
        var engine = F.engine([F.stored(message)])
        let request = try #require(S.requests(engine.handle(.fix(F.fix(at: 1, S.target), F.now(1)))).first)
        _ = engine.handle(.keyDerived(request, .opened(S.content), F.now(1.1), proofKey: "cHJvb2Y="))
        _ = engine.handle(.fix(F.fix(at: 2, S.target), F.now(2)))
        #expect(engine.handle(.fix(F.fix(at: 3, S.target), F.now(3))).unlocks == [1])
        #expect(engine.entries[message.id]?.state.openPages.first?.proofKey == "cHJvb2Y=")
        #expect(engine.proofKeys.isEmpty, "the open page took it")

        // A second answer for the page already open keeps nothing.
        _ = engine.handle(.keyDerived(request, .opened(S.content), F.now(4), proofKey: "bGF0ZQ=="))
        #expect(engine.proofKeys.isEmpty)
        #expect(engine.entries[message.id]?.state.openPages.first?.proofKey == "cHJvb2Y=")
    }

    @Test func anAnswerForAnotherVersionOfThePageKeepsNoProofKey() throws {
        let message = S.message()
        var engine = F.engine([F.stored(message)])
        var request = try #require(S.requests(engine.handle(.fix(F.fix(at: 1, S.target), F.now(1)))).first)
        request.ciphertext = [UInt8](repeating: 9, count: 296)
        _ = engine.handle(.keyDerived(request, .opened(S.content), F.now(1.1), proofKey: "b2xk"))
        #expect(engine.proofKeys.isEmpty)
    }
}
