/// gpsd's fix mode (its `mode`: 0 not seen, 1 no fix, 2 a 2D fix, 3 a 3D fix), as a type: the rules ask whether a
/// report has a position or an altitude, never compare numbers. Written as gpsd's integer on every wire.
public enum FixMode: Int, Hashable, Sendable, Codable, Comparable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    case notSeen = 0, noFix = 1, twoD = 2, threeD = 3

    /// gpsd's integer, clamped to the modes it defines.
    public init(gpsd value: Int) {
        self = FixMode(rawValue: min(max(value, 0), 3))!
    }

    public init(integerLiteral value: Int) { self.init(gpsd: value) }

    /// A 2D or 3D fix: the report has a position.
    public var hasPosition: Bool { self >= .twoD }
    /// A 3D fix: the report may have an altitude.
    public var is3D: Bool { self == .threeD }

    /// "no data", "no fix", "2D fix" or "3D fix", as `status` and systemd's STATUS= show it.
    public var description: String { ["no data", "no fix", "2D fix", "3D fix"][rawValue] }

    public static func < (left: FixMode, right: FixMode) -> Bool { left.rawValue < right.rawValue }

    public init(from decoder: any Decoder) throws {
        self.init(gpsd: try decoder.singleValueContainer().decode(Int.self))
    }
}
