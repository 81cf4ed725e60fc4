import Foundation

/// gpsd's DEVICES report, read without libgps: 3.22's `gps_unpack` loops forever on one whose device list it
/// cannot parse (more than four devices, a path too long, a value of the wrong type), so such a line must never
/// reach it (docs/RELIABILITY.md "Fuzzing").
enum DevicesReport {
    /// The device a DEVICES report lists first, as gpsd names it.
    struct Device: Equatable {
        var path: String
        var driver: String
        var subtype: String
    }

    /// Whether a gpsd JSON line holds a DEVICES report anywhere: libgps unpacks every object of a line, and
    /// dispatches on the first `"class":` of each.
    static func isIn(_ line: some Collection<UInt8>) -> Bool {
        let bytes = Array(line)
        guard bytes.count >= tag.count else { return false }
        return (0...(bytes.count - tag.count)).contains { bytes[$0..<($0 + tag.count)].elementsEqual(tag) }
    }

    /// The first device of the DEVICES report in `line`; nil when the line is not one or lists none. A field that
    /// is absent or not a string is empty, as libgps left it.
    static func firstDevice(in line: Data) -> Device? {
        guard let report = (try? JSONSerialization.jsonObject(with: line)) as? [String: Any],
              report["class"] as? String == "DEVICES",
              let device = (report["devices"] as? [Any])?.first as? [String: Any] else { return nil }
        return Device(path: device["path"] as? String ?? "", driver: device["driver"] as? String ?? "",
                      subtype: device["subtype"] as? String ?? "")
    }

    private static let tag = Array(#""class":"DEVICES""#.utf8)
}
