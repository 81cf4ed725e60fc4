import Foundation
import Testing

@testable import ChestCore

/// A sealed page keeps its ciphertext and key slots in one buffer, in memory or parked (docs/BENCHMARKS.md "Memory"):
/// what goes in comes out, for every kind of slot, and pages compare by what they hold.
@Suite struct SealedPageBytesTests {
    static func bytes(_ count: Int, _ seed: UInt8) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7) ^ seed }
    }

    static let cost = SealCost(passes: 3, memory: 1 << 30, lanes: 4)

    static let slotPairs: [[LockSetName: KeySlot]] = [
        [:],
        [.a: .guarded(key: bytes(32, 1))],
        [.b: .sealed(salt: bytes(16, 2), cost: cost, wrapped: bytes(72, 3))],
        [
            .a: .cells(
                salt: bytes(16, 4), cost: SealCost(passes: 2, memory: 64 << 20),
                wrapped: (0..<16).map { bytes(72, UInt8($0)) }),
            .b: .answers(salt: bytes(16, 5), cost: cost, wrapped: (0..<32).map { bytes(72, UInt8(100 + $0)) }),
        ],
        [.a: .guarded(key: bytes(32, 6)), .b: .guarded(key: bytes(32, 7))],
    ]

    @Test(arguments: 0..<slotPairs.count)
    func everyKindOfSlotReadsBackAsItWasSealed(_ index: Int) {
        let slots = Self.slotPairs[index]
        for (ciphertext, version) in [(Self.bytes(296, 9), 3), ([], 2), (Self.bytes(70_000, 8), 6)] {
            let page = SealedPage(ciphertext: ciphertext, slots: slots, version: version)
            #expect(page.ciphertext == ciphertext)
            #expect(page.slots == slots)
            #expect(page.version == version)
            let again = SealedPage(ciphertext: ciphertext, slots: slots, version: version)
            #expect(page == again && page.hashValue == again.hashValue)
            #expect(page != SealedPage(ciphertext: ciphertext + [0], slots: slots, version: version))
        }
    }
}
