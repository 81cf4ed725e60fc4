/// What the trust checks need of gpsd's latest SKY report, reduced to a few numbers so that carrying it on
/// every fix costs nothing (docs/SECURITY.md "Hardware trust and time").
package struct SkySummary: Hashable, Sendable, Codable {
    /// Counts SKY reports, so that one report attached to several fixes is judged once.
    package var serial: Int
    /// Satellites used in the solution that report a signal strength.
    package var usedWithSignal: Int
    /// A bit per GNSS constellation used (gpsd's gnssid: 0 GPS, 1 SBAS, 2 Galileo, 3 BeiDou, 5 QZSS, 6 GLONASS).
    package var constellations: UInt16
    /// The spread (standard deviation) of the used satellites' signal strengths, in dB-Hz.
    package var signalSpread: Double
    /// A digest of every used satellite's PRN and signal strength: equal digests mean an identical sky.
    package var signalDigest: Int

    package init(serial: Int, usedWithSignal: Int, constellations: UInt16, signalSpread: Double, signalDigest: Int) {
        self.serial = serial
        self.usedWithSignal = usedWithSignal
        self.constellations = constellations
        self.signalSpread = signalSpread
        self.signalDigest = signalDigest
    }

    /// Builds the summary from the used satellites as (PRN, gnssid, signal strength).
    package init(serial: Int, used: some Sequence<(prn: Int, gnssid: Int, ss: Double)>) {
        var count = 0
        var sum = 0.0
        var squares = 0.0
        var constellations: UInt16 = 0
        var hasher = Hasher()
        for satellite in used where satellite.ss.isFinite && satellite.ss > 0 {
            count += 1
            sum += satellite.ss
            squares += satellite.ss * satellite.ss
            constellations |= 1 << UInt16(min(max(satellite.gnssid, 0), 15))
            hasher.combine(satellite.prn)
            hasher.combine(satellite.ss)
        }
        let mean = count > 0 ? sum / Double(count) : 0
        self.init(
            serial: serial, usedWithSignal: count, constellations: constellations,
            signalSpread: count > 0 ? max(0, squares / Double(count) - mean * mean).squareRoot() : 0,
            signalDigest: hasher.finalize())
    }

    /// Whether more than one constellation is used.
    package var isMultiConstellation: Bool { constellations & (constellations &- 1) != 0 }
    /// Whether GPS alone is used.
    package var isGPSOnly: Bool { constellations == 1 }
}
