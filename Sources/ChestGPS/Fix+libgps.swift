import CGPSD
import ChestCore
import ChestIO

extension Fix {
    /// The fix in the TPV report libgps just unpacked into `data`, or `nil` when that message was not a TPV.
    ///
    /// `data.set` must have been zeroed before `libgps_json_unpack`, so that it describes this one message. Every
    /// double is checked with `isFinite` (gpsd's NaN means unknown); position and altitude count only on a
    /// 2D or 3D fix, whatever else the report carries.
    /// - Parameters:
    ///   - satellitesUsed: from the latest SKY report, since a TPV never carries it.
    ///   - receivedAt: the monotonic time the report arrived.
    ///   - sky: the latest SKY report, summarised for the trust checks.
    package init?(_ data: UnsafePointer<gps_data_t>, satellitesUsed: Int?, sky: SkySummary? = nil, receivedAt: Double) {
        // libgps sets STATUS_SET on every TPV, whether or not gpsd sent a status (docs/DESIGN.md "The set mask").
        guard data.pointee.set & STATUS_SET != 0 else { return nil }
        let fix = data.pointee.fix
        var report = GPSDReport.TPV()
        report.mode = Int(fix.mode)
        report.status = Int(fix.status)
        report.latitude = fix.latitude
        report.longitude = fix.longitude
        report.altHAE = fix.altHAE
        report.altMSL = fix.altMSL
        report.geoidSeparation = fix.geoid_sep
        report.eph = fix.eph
        report.epv = fix.epv
        report.seconds = Int(fix.time.tv_sec)
        report.nanoseconds = Int(fix.time.tv_nsec)
        self.init(report, satellitesUsed: satellitesUsed, sky: sky, receivedAt: receivedAt)
    }
}

extension SkySummary {
    /// The used satellites of the SKY report libgps just unpacked into `data`.
    package init(_ data: UnsafePointer<gps_data_t>, serial: Int) {
        let count = min(max(Int(data.pointee.satellites_visible), 0), Int(MAXCHANNELS))
        // A plain array, not a lazy filter and map: SkySummary's generic init is not specialised across modules,
        // and each lazy layer cost metadata look-ups per satellite, a sixth of chestd's CPU per report
        // (docs/BENCHMARKS.md).
        var used: [(prn: Int, gnssid: Int, ss: Double)] = []
        used.reserveCapacity(count)
        withUnsafeBytes(of: data.pointee.skyview) { raw in
            for satellite in raw.bindMemory(to: satellite_t.self).prefix(count) where satellite.used {
                used.append((prn: Int(satellite.PRN), gnssid: Int(satellite.gnssid), ss: satellite.ss))
            }
        }
        self.init(serial: serial, used: used)
    }
}
