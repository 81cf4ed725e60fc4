import ChestCore
import FoundationEssentials
import Glibc

extension Zone {
    /// A zone by name: "UTC", a fixed offset ("+02:00", "-09:30"), or a zone of the tz database
    /// ("Europe/Zurich", read from `TZDIR`, else /usr/share/zoneinfo); nil when there is no such zone.
    package init?(identifier: String) {
        if Self.utcNames.contains(identifier) {
            self = .utc
        } else if let offset = Self.fixedOffset(identifier) {
            self.init(offset: offset)
        } else if let path = Self.databasePath(identifier), let rules = Self.rules(path: path) {
            self.init(identifier: identifier, rules: rules)
        } else {
            return nil
        }
    }

    /// The zone of this process: `TZ` as it was when the program started, else the system's /etc/localtime.
    package static let current = Zone(environment: getenv("TZ").map { String(cString: $0) })

    /// The zone a `TZ` of `value` selects, as the C library reads it: unset, /etc/localtime; empty, UTC;
    /// ":Europe/Zurich" or "Europe/Zurich" (or a path after the colon), that file of the tz database; otherwise a
    /// POSIX rule ("CET-1CEST,M3.5.0,M10.5.0/3"). What none of these reads is UTC, as in the C library.
    package init(environment value: String?) {
        guard let value else {
            let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime")) ?? ""
            let name = link.firstRange(of: "zoneinfo/").map { String(link[$0.upperBound...]) } ?? "localtime"
            self = Self.rules(path: "/etc/localtime").map { Zone(identifier: name, rules: $0) } ?? .utc
            return
        }
        let name = value.hasPrefix(":") ? String(value.dropFirst()) : value
        guard !name.isEmpty else {
            self = .utc
            return
        }
        let path = name.hasPrefix("/") ? name : Self.databasePath(name)
        if let path, let rules = Self.rules(path: path) {
            self.init(identifier: name, rules: rules)
        } else if !value.hasPrefix(":"), let rule = PosixZoneRule(name) {
            self.init(identifier: name, rules: ZoneRules(rule: rule))
        } else {
            self.init(identifier: name, rules: Zone.utc.rules)
        }
    }

    private static let utcNames: Set = ["UTC", "GMT", "Etc/UTC", "Etc/GMT", "Z"]
    private static let databaseDirectory = ProcessInfo.processInfo.environment["TZDIR"] ?? "/usr/share/zoneinfo"
    /// Larger than any zone of the database (the largest is under 4 kB).
    private static let fileLimit = 256 * 1024

    /// "+02:00", "-0930", "+05" in seconds east of UTC.
    private static func fixedOffset(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        let digits = bytes.dropFirst().filter { $0 != UInt8(ascii: ":") }
        guard [2, 4].contains(digits.count), digits.allSatisfy({ (48...57).contains($0) }),
            text.count == 3 || text.count == 5 || (text.count == 6 && bytes[3] == UInt8(ascii: ":"))
        else { return nil }
        let value = Int(String(decoding: digits, as: UTF8.self)) ?? 0
        let hours = digits.count == 2 ? value : value / 100
        let minutes = digits.count == 2 ? 0 : value % 100
        guard hours <= 18, minutes < 60 else { return nil }
        return (sign == UInt8(ascii: "-") ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    /// The file of a zone of the database; nil for a name that would leave it.
    private static func databasePath(_ name: String) -> String? {
        guard !name.isEmpty, !name.hasPrefix("/"), !name.split(separator: "/").contains("..") else { return nil }
        return databaseDirectory + "/" + name
    }

    /// The zone of the TZif file at `path`; nil when it is missing, not a regular file, or not TZif.
    static func rules(path: String) -> ZoneRules? {
        guard let fd = try? FileDescriptor.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY) else { return nil }
        defer { fd.close() }
        guard let info = try? fd.status(path: path), info.st_mode & S_IFMT == S_IFREG else { return nil }
        var bytes = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while bytes.count <= fileLimit {
            guard let count = try? fd.read(into: &buffer, path: path) else { return nil }
            if count == 0 { break }
            bytes += buffer[..<count]
        }
        guard bytes.count <= fileLimit else { return nil }
        return try? TZif.rules(bytes)
    }
}
