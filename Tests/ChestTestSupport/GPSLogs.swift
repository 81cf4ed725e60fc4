import Foundation

/// gpsd's regression logs in Tests/Fixtures/gpslogs (docs/DESIGN.md "gpsfake harness"), and the boxes `logs.tsv` gives them.
package enum GPSLogs {
    /// The package root: the directory holding Package.swift.
    package static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    package static let directory = packageRoot.appendingPathComponent("Tests/Fixtures/gpslogs")

    /// One row of logs.tsv.
    package struct Entry: Sendable, CustomStringConvertible {
        package let name: String
        package let url: URL
        package let latitudes: ClosedRange<Double>
        package let longitudes: ClosedRange<Double>
        /// Seconds per packet for real-time replay (gpsfake `-c`).
        package let realTimeDelay: Double?
        /// The span of the 3D fixes' altMSL, when the table gives one.
        package let altitudes: ClosedRange<Double>?
        /// Whether logs.tsv calls the log a negative example (a fix an evaluator should not trust).
        package let negative: Bool
        package var description: String { name }
    }

    /// The logs that logs.tsv describes.
    package static func entries() -> [Entry] {
        guard let table = try? String(contentsOf: directory.appendingPathComponent("logs.tsv"), encoding: .utf8)
        else { return [] }
        let rows = table.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        guard let header = rows.first.map({ $0.map(String.init) }),
            let name = header.firstIndex(of: "log"), let latMin = header.firstIndex(of: "lat_min"),
            let latMax = header.firstIndex(of: "lat_max"), let lonMin = header.firstIndex(of: "lon_min"),
            let lonMax = header.firstIndex(of: "lon_max")
        else { return [] }
        let delay = header.firstIndex(of: "gpsfake_c_for_realtime")
        let altitude = header.firstIndex(of: "altMSL_range_m")
        let role = header.firstIndex(of: "role")
        func column(_ row: [Substring], _ index: Int?) -> String? {
            index.flatMap { row.count > $0 ? String(row[$0]) : nil }
        }
        return rows.dropFirst().compactMap { row in
            guard row.count > max(name, latMin, latMax, lonMin, lonMax),
                let a = Double(row[latMin]), let b = Double(row[latMax]),
                let c = Double(row[lonMin]), let d = Double(row[lonMax]), a <= b, c <= d
            else { return nil }
            let url = directory.appendingPathComponent(String(row[name]))
            guard FileManager.default.fileExists(atPath: url.path) else { return nil }
            let span = column(row, altitude)?.components(separatedBy: "..").compactMap(Double.init)
            return Entry(
                name: String(row[name]), url: url, latitudes: a...b, longitudes: c...d,
                realTimeDelay: column(row, delay).flatMap(Double.init),
                altitudes: span.flatMap { $0.count == 2 && $0[0] <= $0[1] ? $0[0]...$0[1] : nil },
                negative: column(row, role)?.hasPrefix("negative") ?? false)
        }
    }
}
