/// Where a hunt's broker listens (docs/HUNTS.md "Hunt files"): `mqtt://HOST[:PORT]` (plain, port 1883) or
/// `mqtts://HOST[:PORT]` (TLS, port 8883); an IPv6 host in brackets. In the hunt file it is written as the organiser
/// wrote it, and shown so.
package struct BrokerURL: Hashable, Sendable, TextCodable {
    package let host: String
    package let port: Int
    package let tls: Bool
    /// The URL as written.
    package let text: String

    /// Nil for another scheme, a path, a user, an empty or malformed host, or a port outside 1...65535.
    package init?(_ text: String) {
        let rest: Substring
        if text.hasPrefix("mqtts://") {
            tls = true
            rest = text.dropFirst(8)
        } else if text.hasPrefix("mqtt://") {
            tls = false
            rest = text.dropFirst(7)
        } else {
            return nil
        }
        var hostPart: Substring
        var portPart: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            hostPart = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                portPart = after.dropFirst()
            }
            guard !hostPart.isEmpty, hostPart.contains(":"),
                hostPart.unicodeScalars.allSatisfy({ $0.properties.isASCIIHexDigit || $0 == ":" || $0 == "." })
            else { return nil }
        } else {
            if let colon = rest.firstIndex(of: ":") {
                hostPart = rest[..<colon]
                portPart = rest[rest.index(after: colon)...]
            } else {
                hostPart = rest
            }
            guard !hostPart.isEmpty, hostPart.utf8.count <= 253, !hostPart.hasPrefix("-"), !hostPart.hasPrefix("."),
                hostPart.unicodeScalars.allSatisfy({
                    $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == ".")
                })
            else { return nil }
        }
        if let portPart {
            guard !portPart.isEmpty, portPart.count <= 5, portPart.allSatisfy({ ("0"..."9").contains($0) }),
                let number = Int(portPart), (1...65535).contains(number)
            else { return nil }
            port = number
        } else {
            port = tls ? 8883 : 1883
        }
        host = String(hostPart)
        self.text = text
    }

    /// The URL as written.
    package var description: String { text }

    package static func problem(reading text: String) -> String {
        "\"\(TerminalText.escaped(text))\" is not mqtt://HOST[:PORT] or mqtts://HOST[:PORT]"
    }
}
