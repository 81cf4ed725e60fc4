import ChestSeal
import Foundation
import Testing

@testable import ChestCLI
@testable import ChestCore

/// Issue 61, finding 7: what compose --quest tells an organiser sealing will cost, before it starts, counts the
/// Argon2id runs sealing makes (PageSealer's, one per cell of a place's key block and answer) at the cost compose
/// gives each set, on the machine's cores as compose runs them.
@Suite struct SealingEstimateTests {
    static let place = LockSpec.lock(.location(center: Coordinate(latitude: 47.37, longitude: 8.54), radius: 30))

    static func draft(_ sets: [[LockSpec]], sealCost: SealCost.Level? = nil) -> ComposeDraft {
        var draft = ComposeDraft()
        draft.pages = sets.map { PageDraft(text: "text", setA: $0) }
        draft.sealCost = sealCost
        return draft
    }

    static func estimate(_ draft: ComposeDraft, cores: Int = 2) -> SealingEstimate {
        var estimate = SealingEstimate()
        estimate.add(draft, cores: cores)
        return estimate
    }

    @Test func eachSetCountsTheRunsSealingItMakesAtItsCost() throws {
        let time = try LockSpec.parse("time=2030-01-01T00:00:00Z", timeZone: Zone(identifier: "UTC")!)
        let visible = LockSpec.visible(Self.place, label: nil)
        // Format 3: a place alone is a 2 × 2 block of cells, each a run of 4 passes over 512 MiB.
        let places = Self.estimate(Self.draft([[Self.place], [Self.place, time], [visible], [time], []]))
        #expect(places.pages == 2 && places.runs == 8)
        let placeCost = SealCost.Secret.place.cost(version: 3)
        #expect(abs(places.seconds - 2 * placeCost.seconds(runs: 4, cores: 2)) < 1e-9)
        #expect(abs(places.seconds - 2 * 2 * placeCost.secondsPerGuess) < 1e-9, "two runs at once on two cores")
        // Format 5: a PIN is one run of two lanes; a place with a PIN a 4 × 4 block of them; an answer a run each.
        let pin = Self.estimate(
            Self.draft([[.pin(digits: "4821")], [Self.place, .pin(digits: "4821")], [.answer("zytglogge|clock")]]))
        #expect(pin.runs == 1 + 16 + 2)
        let lanes = SealCost.Secret.pin.cost(version: 5)
        #expect(abs(pin.seconds - Double(1 + 16 + 2) * lanes.secondsPerKey) < 1e-9, "one two-lane run at a time")
        // --seal-cost prices every set at its level.
        let cheap = Self.estimate(Self.draft([[Self.place]], sealCost: .interactive))
        #expect(abs(cheap.seconds - 2 * SealCost.Level.interactive.cost.secondsPerKey) < 1e-9)
        // Format 1 seals nothing.
        var clear = Self.draft([[Self.place], [.pin(digits: "4821")]])
        clear.format = 1
        #expect(Self.estimate(clear) == SealingEstimate())
    }

    @Test func tenThousandPlacesAreHoursAndSaidSo() {
        var estimate = SealingEstimate()
        for _ in 0..<2_000 { estimate.add(Self.draft(Array(repeating: [Self.place], count: 5)), cores: 2) }
        #expect(estimate.pages == 10_000 && estimate.runs == 40_000)
        #expect(estimate.seconds > SealingEstimate.askAbove)
        #expect(
            estimate.sentence(messages: 2_000, cores: 2).hasPrefix(
                "sealing 10,000 pages of 2,000 messages takes about 8 h 36 min on this machine's 2 cores (40,000 Argon2id runs"
            ), "\(estimate.sentence(messages: 2_000, cores: 2))")
        var small = SealingEstimate()
        small.add(Self.draft(Array(repeating: [Self.place, .pin(digits: "4821")], count: 5)), cores: 2)
        #expect(small.seconds < SealingEstimate.askAbove, "five places with PINs are built without asking")
    }
}
