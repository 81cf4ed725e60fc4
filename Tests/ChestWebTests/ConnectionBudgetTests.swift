import Glibc
import Testing

@testable import ChestWeb

/// The web board's choice under many slow clients (docs/HUNTS.md "Slow and idle connections"): at the cap a newcomer
/// closes the oldest connection still waiting for its request, never one being answered, and one client (an IPv4
/// address or an IPv6 /64) holds at most its share.
@Suite struct ConnectionBudgetTests {
    static let a = ClientAddress(ipv4: [127, 0, 1, 2])
    static let b = ClientAddress(ipv4: [127, 0, 1, 3])

    @Test func atTheCapANewcomerClosesTheOldestConnectionStillWaiting() {
        var budget = ConnectionBudget(total: 3, perClient: 10)
        #expect(budget.opened(1, from: Self.a) == [])
        #expect(budget.opened(2, from: Self.b) == [])
        #expect(budget.opened(3, from: Self.a) == [])
        #expect(budget.opened(4, from: Self.b) == [1])
        #expect(budget.opened(5, from: Self.a) == [2])
        #expect(budget.kept == 3)
        #expect(budget.open == 5)
        // The closed ones leave when libmicrohttpd reports them gone.
        budget.closed(1)
        budget.closed(2)
        #expect(budget.open == 3 && budget.kept == 3 && budget.closedCount == 2)
    }

    @Test func aConnectionBeingAnsweredIsNeverClosedForANewcomer() {
        var budget = ConnectionBudget(total: 3, perClient: 10)
        for id: ConnectionBudget.ID in 1...3 { _ = budget.opened(id, from: Self.a) }
        budget.requestStarted(1)
        #expect(budget.opened(4, from: Self.b) == [2])
        budget.requestStarted(3)
        budget.requestStarted(4)
        // Every kept connection is being answered (event streams, say): the newcomer is the one closed.
        #expect(budget.opened(5, from: Self.b) == [5])
        #expect(budget.kept == 3)
    }

    @Test func aConnectionKeptAliveAfterItsAnswerWaitsAsTheNewest() {
        var budget = ConnectionBudget(total: 3, perClient: 10)
        for id: ConnectionBudget.ID in 1...3 { _ = budget.opened(id, from: Self.a) }
        budget.requestStarted(1)
        budget.requestEnded(1)
        #expect(budget.opened(4, from: Self.b) == [2])
        #expect(budget.opened(5, from: Self.b) == [3])
        #expect(budget.opened(6, from: Self.b) == [1])
    }

    @Test func aConnectionClosedByItsClientIsNotChosenLater() {
        var budget = ConnectionBudget(total: 2, perClient: 10)
        _ = budget.opened(1, from: Self.a)
        _ = budget.opened(2, from: Self.a)
        budget.closed(1)
        #expect(budget.opened(3, from: Self.b) == [])
        #expect(budget.opened(4, from: Self.b) == [2])
    }

    @Test func oneClientHoldsAtMostItsShareOpenConnectionsBeingClosedIncluded() {
        var budget = ConnectionBudget(total: 100, perClient: 2)
        #expect(budget.admits(Self.a))
        _ = budget.opened(1, from: Self.a)
        _ = budget.opened(2, from: Self.a)
        #expect(!budget.admits(Self.a))
        #expect(budget.admits(Self.b))
        // One that slipped past the check (two threads accepting at once) is closed as it opens.
        #expect(budget.opened(3, from: Self.a) == [3])
        budget.closed(3)
        #expect(!budget.admits(Self.a))
        budget.closed(1)
        #expect(budget.admits(Self.a))
    }

    @Test func ipv6ClientsCountByTheirSlash64() {
        let host = ClientAddress(ipv6: Self.ipv6("2001:db8:1:2::1"))
        #expect(host == ClientAddress(ipv6: Self.ipv6("2001:db8:1:2:ffff:1234:5678:9abc")))
        #expect(host != ClientAddress(ipv6: Self.ipv6("2001:db8:1:3::1")))
        #expect(ClientAddress(ipv6: Self.ipv6("::ffff:127.0.1.2")) == Self.a)
        #expect(host.description == "2001:db8:1:2::/64")

        var budget = ConnectionBudget(total: 1_000, perClient: 64)
        for index in 0..<64 {
            let address = ClientAddress(ipv6: Self.ipv6("2001:db8:1:2::\(String(index + 1, radix: 16))"))
            #expect(budget.admits(address))
            #expect(budget.opened(ConnectionBudget.ID(index + 1), from: address) == [])
        }
        #expect(!budget.admits(ClientAddress(ipv6: Self.ipv6("2001:db8:1:2:dead:beef::1"))))
        #expect(budget.admits(ClientAddress(ipv6: Self.ipv6("2001:db8:1:3::1"))))
    }

    @Test func fromTheSocketAddressesLibmicrohttpdGives() {
        var v4 = sockaddr_in()
        v4.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, "127.0.1.2", &v4.sin_addr)
        let fromV4 = withUnsafePointer(to: &v4) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { ClientAddress($0) }
        }
        #expect(fromV4 == Self.a)
        var v6 = sockaddr_in6()
        v6.sin6_family = sa_family_t(AF_INET6)
        inet_pton(AF_INET6, "2001:db8:1:2:aaaa::7", &v6.sin6_addr)
        let fromV6 = withUnsafePointer(to: &v6) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { ClientAddress($0) }
        }
        #expect(fromV6 == ClientAddress(ipv6: Self.ipv6("2001:db8:1:2::1")))
        #expect(ClientAddress(nil) == .other)
    }

    /// Issue 45's figure: 15,000 slow connections from 300 addresses (50 each, under the cap of 64) against a
    /// cap of 10,000. The board keeps the newest 10,000 and an honest newcomer gets in.
    @Test func fifteenThousandFromThreeHundredAddressesKeepTheNewestTenThousand() {
        var budget = ConnectionBudget(total: 10_000, perClient: 64)
        var closing: [ConnectionBudget.ID] = []
        for index in 0..<15_000 {
            let client = ClientAddress(ipv4: [127, 0, UInt8(1 + index / 50 / 250), UInt8(2 + (index / 50) % 250)])
            #expect(budget.admits(client))
            closing += budget.opened(ConnectionBudget.ID(index + 1), from: client)
        }
        #expect(closing == Array(1...5_000))
        for id in closing { budget.closed(id) }
        let honest = ClientAddress(ipv4: [127, 0, 0, 1])
        #expect(budget.opened(15_001, from: honest) == [5_001])
        budget.requestStarted(15_001)
        #expect(budget.kept == 10_000 && budget.open == 10_001)
    }

    static func ipv6(_ text: String) -> [UInt8] {
        var address = in6_addr()
        precondition(inet_pton(AF_INET6, text, &address) == 1, text)
        return withUnsafeBytes(of: address) { Array($0) }
    }
}
