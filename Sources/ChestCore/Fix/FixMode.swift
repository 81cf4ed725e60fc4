/// gpsd's fix mode (its `mode`: 0 not seen, 1 no fix, 2 a 2D fix, 3 a 3D fix), as a type: the rules ask whether a
/// report has a position or an altitude, never compare numbers. Written as gpsd's integer on every wire.
package enum FixMode: Int, Hashable, Sendable, Codable, Comparable, ExpressibleByIntegerLiteral, CustomStringConvertible
{
    case notSeen = 0, noFix = 1, twoD = 2, threeD = 3

    /// gpsd's integer, clamped to the modes it defines.
    package init(gpsd value: Int) {
        self = FixMode(rawValue: min(max(value, 0), 3))!
    }

    package init(integerLiteral value: Int) { self.init(gpsd: value) }

    /// A 2D or 3D fix: the report has a position.
    package var hasPosition: Bool { self >= .twoD }
    /// A 3D fix: the report may have an altitude.
    package var is3D: Bool { self == .threeD }

    /// "no data", "no fix", "2D fix" or "3D fix", as `status` and systemd's STATUS= show it.
    package var description: String { ["no data", "no fix", "2D fix", "3D fix"][rawValue] }

    package static func < (left: FixMode, right: FixMode) -> Bool { left.rawValue < right.rawValue }

    package init(from decoder: any Decoder) throws {
        self.init(gpsd: try decoder.singleValueContainer().decode(Int.self))
    }
}
