import Glibc

/// This machine's name, as a hunt names a team's device (docs/HUNTS.md "Several devices in one team").
package enum HostName {
    /// The host name as an MQTT topic level: letters, digits and - (anything else becomes -), at most 32
    /// characters; "chest" when the machine has none.
    package static func device() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, buffer.count)
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .map { $0.isLetter && $0.isASCII || $0.isNumber && $0.isASCII || $0 == "-" ? $0 : "-" }
        return name.isEmpty ? "chest" : String(name.prefix(32))
    }
}
