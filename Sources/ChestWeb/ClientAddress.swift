import Glibc

/// Who a connection counts against for the per-address cap (docs/HUNTS.md "Slow and idle connections"): an IPv4
/// address, or the /64 of an IPv6 one. One IPv6 host commonly holds a whole /64 and can pick any of its 2^64
/// addresses for each connection, so counting by address would give it no cap at all. An IPv4-mapped IPv6 address
/// (`::ffff:192.0.2.1`, a dual-stack socket's IPv4 client) counts as its IPv4 address.
struct ClientAddress: Hashable, Sendable, CustomStringConvertible {
    private enum Family: Hashable, Sendable { case ipv4, ipv6, other }
    private let family: Family
    /// The IPv4 address, or the IPv6 address's first 64 bits, in network order read as a big-endian number.
    private let bits: UInt64

    /// An IPv4 client.
    init(ipv4 bytes: [UInt8]) {
        precondition(bytes.count == 4)
        self.init(family: .ipv4, bits: Self.number(bytes[0..<4]))
    }

    /// An IPv6 client: its /64, or its IPv4 address when it is IPv4-mapped.
    init(ipv6 bytes: [UInt8]) {
        precondition(bytes.count == 16)
        let mapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xff && bytes[11] == 0xff
        self.init(family: mapped ? .ipv4 : .ipv6, bits: Self.number(mapped ? bytes[12..<16] : bytes[0..<8]))
    }

    private static func number(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var number: UInt64 = 0
        for byte in bytes { number = number << 8 | UInt64(byte) }
        return number
    }

    /// A client whose address is neither (a Unix socket): all such count as one.
    static let other = ClientAddress(family: .other, bits: 0)

    private init(family: Family, bits: UInt64) {
        self.family = family
        self.bits = bits
    }

    /// From the address libmicrohttpd gives for a connection.
    init(_ address: UnsafePointer<sockaddr>?) {
        guard let address else {
            self = .other
            return
        }
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            let raw = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            self.init(ipv4: withUnsafeBytes(of: raw) { Array($0) })
        case AF_INET6:
            let raw = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
            self.init(ipv6: withUnsafeBytes(of: raw) { Array($0) })
        default:
            self = .other
        }
    }

    var description: String {
        switch family {
        case .ipv4:
            let parts: [String] = [24, 16, 8, 0].map { (shift: UInt64) -> String in String((bits >> shift) & 0xff) }
            return parts.joined(separator: ".")
        case .ipv6:
            let parts: [String] = [48, 32, 16, 0].map { (shift: UInt64) -> String in
                String((bits >> shift) & 0xffff, radix: 16)
            }
            return parts.joined(separator: ":") + "::/64"
        case .other:
            return "other"
        }
    }
}
