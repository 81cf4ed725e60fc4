import Testing

@testable import ChestWeb

/// The web board's choice among event streams (docs/HUNTS.md "Slow and idle connections"): one client (an IPv4
/// address or an IPv6 /64) holds at most its share; at the total a newcomer closes the oldest stream of the client
/// holding most, itself counted, and among clients holding equally many the one that opened last gives one up.
@Suite struct StreamBudgetTests {
    static func client(_ last: UInt8) -> ClientAddress { ClientAddress(ipv4: [127, 0, 3, last]) }
    static let screen = ClientAddress(ipv4: [192, 0, 2, 10])

    @Test func oneClientHoldsAtMostItsShareAndGetsItBackWhenOneEnds() {
        var budget = StreamBudget(total: 100, perClient: 3)
        for id: StreamBudget.ID in 1...3 { #expect(budget.open(id, from: Self.client(1)) == .admitted(closing: nil)) }
        #expect(budget.open(4, from: Self.client(1)) == .overClientCap)
        #expect(budget.open(5, from: Self.client(2)) == .admitted(closing: nil))
        budget.closed(2)
        #expect(budget.open(6, from: Self.client(1)) == .admitted(closing: nil))
        #expect(budget.kept == 4 && budget.refusedCount == 1 && budget.count(of: Self.client(1)) == 3)
    }

    @Test func anIPv6SlashSixtyFourIsOneClient() {
        var budget = StreamBudget(total: 100, perClient: 2)
        let prefix: [UInt8] = [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 1]
        for (id, host) in [(1, 1), (2, 2), (3, 3)] as [(StreamBudget.ID, UInt8)] {
            let decision = budget.open(id, from: ClientAddress(ipv6: prefix + [0, 0, 0, 0, 0, 0, 0, host]))
            #expect(decision == (id < 3 ? .admitted(closing: nil) : .overClientCap))
        }
    }

    @Test func atTheTotalANewcomerClosesTheOldestStreamOfTheClientHoldingMost() {
        var budget = StreamBudget(total: 6, perClient: 4)
        // a holds 3 (1, 2, 3), b holds 2 (4, 5), c holds 1 (6).
        for (id, client) in [(1, 1), (2, 1), (3, 1), (4, 2), (5, 2), (6, 3)] as [(StreamBudget.ID, UInt8)] {
            #expect(budget.open(id, from: Self.client(client)) == .admitted(closing: nil))
        }
        #expect(budget.open(7, from: Self.screen) == .admitted(closing: 1))
        #expect(budget.count(of: Self.client(1)) == 2 && budget.kept == 6 && budget.closedCount == 1)
        // a and b hold 2 each now: b opened last, and gives up its oldest.
        #expect(budget.open(8, from: Self.client(4)) == .admitted(closing: 4))
        // A client at the most that opens again closes its own oldest, never another's.
        #expect(budget.open(9, from: Self.client(1)) == .admitted(closing: 2))
        #expect(budget.open(10, from: Self.client(1)) == .admitted(closing: 3))
        #expect(budget.count(of: Self.client(1)) == 2 && budget.count(of: Self.screen) == 1)
        // A stream closed for a newcomer that ends later is not counted twice.
        budget.closed(1)
        #expect(budget.kept == 6)
    }

    @Test func whenEveryClientHoldsOneANewcomerIsRefusedAndTheLongestFollowerKeepsItsStream() {
        var budget = StreamBudget(total: 3, perClient: 4)
        #expect(budget.open(1, from: Self.screen) == .admitted(closing: nil))
        #expect(budget.open(2, from: Self.client(1)) == .admitted(closing: nil))
        #expect(budget.open(3, from: Self.client(2)) == .admitted(closing: nil))
        #expect(budget.open(4, from: Self.client(3)) == .full)
        // The screen reloads: it holds as many as any and opens last, so its own oldest makes room.
        #expect(budget.open(5, from: Self.screen) == .admitted(closing: 1))
        #expect(budget.kept == 3 && budget.refusedCount == 1)
    }
}
