import struct FoundationEssentials.Date

/// A TPV or SKY report of gpsd, read from its JSON line without libgps: the two reports of every epoch, which
/// libgps's general parser made most of chestd's CPU per fix.
///
/// The reader is strict and reads only what gpsd 3.22 writes: one flat object with the keys gpsd sends, no
/// whitespace, no escapes, short printable strings, numbers it can convert exactly as libgps does. For any
/// other line `parse` returns `nil` and the line goes to libgps, so what the reader accepts must give the values
/// libgps would give (docs/DESIGN.md "The fast path for TPV and SKY").
package enum GPSDReport: Sendable {
    /// A TPV: the receiver's position, time and mode.
    case tpv(TPV)
    /// A SKY: the satellites the receiver sees and uses.
    case sky(Sky)

    /// The fields of a TPV report that a `Fix` is made of, with libgps's defaults: NaN for an absent number,
    /// 0 for an absent mode, status or time.
    package struct TPV: Sendable {
        /// gpsd's fix mode, as sent (the `Fix` clamps it to 0…3).
        package var mode = 0
        /// gpsd's status, 0 when it sends none.
        package var status = 0
        /// Degrees; the numbers below are as gpsd sent them, NaN when absent.
        package var latitude = Double.nan
        package var longitude = Double.nan
        package var altHAE = Double.nan
        package var altMSL = Double.nan
        package var geoidSeparation = Double.nan
        package var eph = Double.nan
        package var epv = Double.nan
        /// The report's time as seconds and nanoseconds since 1970 (0 and 0 when it has none).
        package var seconds = 0
        package var nanoseconds = 0

        /// A TPV with nothing in it, as libgps leaves its fields before reading one.
        package init() {}
    }

    /// One entry of a SKY report's `satellites`, with libgps's defaults (PRN 0, gnssid 0, ss NaN, not used).
    package struct Satellite: Sendable {
        package var prn = 0
        package var gnssid = 0
        package var ss = Double.nan
        package var used = false

        /// A satellite entry; the defaults are libgps's for an absent member.
        package init(prn: Int = 0, gnssid: Int = 0, ss: Double = .nan, used: Bool = false) {
            self.prn = prn
            self.gnssid = gnssid
            self.ss = ss
            self.used = used
        }
    }

    /// A SKY report's satellites, in the report's order.
    package struct Sky: Sendable {
        package var satellites: [Satellite]

        /// A SKY with these satellites, in the report's order.
        package init(satellites: [Satellite]) { self.satellites = satellites }

        /// libgps's `satellites_visible`: the entries with a PRN above 0, not the length of the list.
        package var visible: Int { satellites.count { $0.prn > 0 } }

        /// Satellites used, as chestd counts them from libgps: libgps's count of entries marked used, or `nil`
        /// when no entry has a PRN (a SKY without `satellites`, whatever its `uSat`, gives nil).
        package var satellitesUsed: Int? {
            visible > 0 ? satellites.count { $0.used } : nil
        }

        /// The summary chestd builds from libgps's `skyview`: the used entries among the first `visible`, or
        /// `nil` when none has a PRN.
        package func summary(serial: Int) -> SkySummary? {
            let visible = visible
            guard visible > 0 else { return nil }
            return SkySummary(
                serial: serial,
                used: satellites.prefix(visible).lazy.filter(\.used)
                    .map { (prn: $0.prn, gnssid: $0.gnssid, ss: $0.ss) })
        }
    }

    /// gpsd 3.22's MAXCHANNELS: libgps rejects a longer `satellites` list.
    package static let maximumSatellites = 140

    /// The report on one line of gpsd's JSON (without its newline), or `nil` when it is not a TPV or SKY this
    /// reader fully understands.
    package static func parse(_ line: UnsafeRawBufferPointer) -> GPSDReport? {
        guard let base = line.baseAddress, line.count >= 15, line.count <= 10_240 else { return nil }
        // gpsd ends its lines with "\r\n"; the line comes without the "\n".
        let end = line[line.count - 1] == UInt8(ascii: "\r") ? line.count - 1 : line.count
        var reader = GPSDReportReader(base: base.assumingMemoryBound(to: UInt8.self), end: end)
        // `{"class":"TPV"` or `{"class":"SKY"`, then the other members.
        guard reader.skip(#"{"class":""#) else { return nil }
        if reader.skip(#"TPV""#) { return reader.tpv().map(GPSDReport.tpv) }
        if reader.skip(#"SKY""#) { return reader.sky().map(GPSDReport.sky) }
        return nil
    }

    /// Parses `text` as one line; for tests and the fuzzer.
    package static func parse(_ text: String) -> GPSDReport? {
        var text = text
        return text.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }
}

extension Fix {
    /// The fix a TPV report gives, by the rules chestd applies to every report whether libgps or
    /// `GPSDReport` read it: every number checked with `isFinite` (NaN means unknown), position and altitude
    /// only on a 2D or 3D fix, altMSL else altHAE − geoidSep, status only from 2 up (docs/DESIGN.md "TPV fields
    /// and NaN").
    /// - Parameters:
    ///   - satellitesUsed: from the latest SKY report, since a TPV never carries it.
    ///   - sky: the latest SKY report, summarised for the trust checks.
    ///   - receivedAt: the monotonic time the report arrived.
    package init(_ report: GPSDReport.TPV, satellitesUsed: Int?, sky: SkySummary?, receivedAt: Double) {
        let located = report.mode >= 2
        var coordinate: Coordinate?
        if located, report.latitude.isFinite, report.longitude.isFinite {
            coordinate = Coordinate(latitude: report.latitude, longitude: report.longitude)
        }
        var altitude: Double?
        if located {
            if report.altMSL.isFinite {
                altitude = report.altMSL
            } else if report.altHAE.isFinite, report.geoidSeparation.isFinite {
                altitude = report.altHAE - report.geoidSeparation
            }
        }
        var time: Date?
        if report.seconds != 0 {
            time = Date(timeIntervalSince1970: Double(report.seconds) + Double(report.nanoseconds) / 1e9)
        }
        self.init(
            mode: FixMode(gpsd: report.mode), coordinate: coordinate, altitudeMSL: altitude,
            eph: report.eph.isFinite ? report.eph : nil, epv: report.epv.isFinite ? report.epv : nil,
            satellitesUsed: satellitesUsed, time: time, receivedAt: receivedAt,
            status: report.status >= 2 ? report.status : nil, sky: sky)
    }
}
