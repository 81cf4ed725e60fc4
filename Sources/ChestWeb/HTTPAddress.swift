import Glibc

/// Where the board listens: `[ADDR:]PORT`, ADDR an IPv4 address or a bracketed IPv6 one (`[::1]:8080`), 127.0.0.1
/// when left out. Port 0 takes any free port (the board prints the one it got).
package struct HTTPAddress: Sendable, Hashable, CustomStringConvertible {
    package let host: String
    package let port: UInt16
    let isIPv6: Bool

    /// Reads `[ADDR:]PORT`; nil when it is not one.
    package init?(_ text: String) {
        var host = "127.0.0.1"
        var portText = Substring(text)
        var ipv6 = false
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                return nil
            }
            host = String(text[text.index(after: text.startIndex)..<close])
            portText = text[text.index(close, offsetBy: 2)...]
            ipv6 = true
        } else if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            portText = text[text.index(after: colon)...]
            if host == "localhost" { host = "127.0.0.1" }
        }
        guard !portText.isEmpty, portText.allSatisfy(\.isASCII), let port = UInt16(portText) else { return nil }
        self.host = host
        self.port = port
        isIPv6 = ipv6
        guard withSocketAddress({ _ in true }) != nil else { return nil }
    }

    /// Whether only this machine can reach it: 127.0.0.0/8 or ::1.
    package var isLoopback: Bool {
        withSocketAddress { address in
            if isIPv6 {
                return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                    let bytes = withUnsafeBytes(of: pointer.pointee.sin6_addr) { Array($0) }
                    return bytes == Array(repeating: 0, count: 15) + [1]
                }
            }
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                UInt32(bigEndian: $0.pointee.sin_addr.s_addr) >> 24 == 127
            }
        } ?? false
    }

    package var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The same address on another port (the one port 0 got).
    package func with(port: UInt16) -> HTTPAddress { HTTPAddress(isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)")! }

    /// Calls `body` with the address as a `sockaddr`; nil when the host is not an address.
    func withSocketAddress<T>(_ body: (UnsafeMutablePointer<sockaddr>) -> T) -> T? {
        var storage = sockaddr_storage()
        return withUnsafeMutablePointer(to: &storage) { pointer -> T? in
            if isIPv6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address -> T? in
                    address.pointee.sin6_family = sa_family_t(AF_INET6)
                    address.pointee.sin6_port = port.bigEndian
                    guard inet_pton(AF_INET6, host, &address.pointee.sin6_addr) == 1 else { return nil }
                    return address.withMemoryRebound(to: sockaddr.self, capacity: 1, body)
                }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address -> T? in
                address.pointee.sin_family = sa_family_t(AF_INET)
                address.pointee.sin_port = port.bigEndian
                guard inet_pton(AF_INET, host, &address.pointee.sin_addr) == 1 else { return nil }
                return address.withMemoryRebound(to: sockaddr.self, capacity: 1, body)
            }
        }
    }
}
