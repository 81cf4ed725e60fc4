import CGPSD
import ChestCore
import ChestGPS
import ChestTestSupport
import Foundation
import Testing

/// `GPSDReport`, chestd's own reader of TPV and SKY, against libgps on the same lines: whatever it accepts must
/// give the fix, the satellites used and the sky summary that libgps gives (docs/DESIGN.md "The fast path for TPV
/// and SKY").
@Suite(.realProcesses, .tags(.process, .gpsd), .timeLimit(.minutes(3)))
struct GPSDReportDifferentialTests {
    /// What one line gives GPSReader.
    enum Outcome: Equatable, CustomStringConvertible {
        case fix(Fix)
        case sky(satellitesUsed: Int?, summary: SkySummary?)
        case other

        var description: String {
            switch self {
            case .fix(let fix): "fix \(fix)"
            case .sky(let used, let summary): "sky used \(String(describing: used)) \(String(describing: summary))"
            case .other: "other"
            }
        }
    }

    /// The line through libgps, as GPSReader takes what its own reader leaves.
    static func libgps(_ line: String) -> Outcome {
        let data = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
        defer { data.deallocate() }
        data.initialize(to: gps_data_t())
        var rest: UnsafePointer<CChar>?
        _ = libgps_json_unpack(line, data, &rest)
        if let fix = Fix(UnsafePointer(data), satellitesUsed: 7, sky: nil, receivedAt: 1) { return .fix(fix) }
        guard data.pointee.set & SATELLITE_SET != 0 else { return .other }
        let visible = data.pointee.satellites_visible > 0
        return .sky(
            satellitesUsed: visible ? Int(data.pointee.satellites_used) : nil,
            summary: visible ? SkySummary(UnsafePointer(data), serial: 1) : nil)
    }

    /// The line through `GPSDReport`, or `nil` when it leaves the line to libgps.
    static func fast(_ line: String) -> Outcome? {
        switch GPSDReport.parse(line) {
        case .tpv(let report): .fix(Fix(report, satellitesUsed: 7, sky: nil, receivedAt: 1))
        case .sky(let report): .sky(satellitesUsed: report.satellitesUsed, summary: report.summary(serial: 1))
        case nil: nil
        }
    }

    @Test func everyTPVAndSKYGpsdWritesForTheReceiverLogsIsReadAsLibgpsReadsIt() throws {
        var tpv = 0
        var sky = 0
        for entry in GPSLogs.entries() {
            let fake = try GPSFake(log: entry.url, delay: 0)
            defer { fake.stop() }
            #expect(fake.waitForExit(timeout: 60) == 0, "\(entry.name)")
            // Split as GPSReader splits: at "\n", each line keeping gpsd's "\r".
            let lines = fake.output.utf8.split(separator: UInt8(ascii: "\n")).map {
                String(decoding: $0, as: UTF8.self)
            }
            .filter { $0.hasPrefix(#"{"class":"TPV""#) || $0.hasPrefix(#"{"class":"SKY""#) }
            #expect(!lines.isEmpty, "\(entry.name): \(fake.output.suffix(700))")
            for line in lines {
                let fast = Self.fast(line)
                // gpsd's own lines must all take the fast path, or it saves nothing.
                #expect(fast != nil, "\(entry.name): left to libgps: \(line)")
                #expect(fast == nil || fast == Self.libgps(line), "\(entry.name): \(line)")
                if line.hasPrefix(#"{"class":"TPV""#) { tpv += 1 } else { sky += 1 }
            }
        }
        #expect(tpv > 1000 && sky > 500, "\(tpv) TPV, \(sky) SKY")
    }

    /// Lines gpsd could write, and some it would not, that the fast reader must accept and read as libgps does.
    static let accepted = [
        #"{"class":"TPV","device":"/dev/ttyACM0","status":2,"mode":3,"time":"2026-06-01T09:00:02.000Z","leapseconds":18,"ept":0.005,"lat":48.858370,"lon":2.294481,"altHAE":100.200,"altMSL":53.100,"alt":53.100,"epx":3.100,"epy":4.200,"epv":5.500,"track":12.3000,"magtrack":13.1000,"magvar":0.8,"speed":0.100,"climb":0.000,"eps":0.20,"epc":0.50,"geoidSep":47.100,"eph":6.100,"sep":8.200}"#,
        #"{"class":"TPV","mode":3,"lat":-0.0,"lon":-0,"altHAE":-0.0,"geoidSep":0}"#,
        #"{"class":"TPV","mode":3,"altHAE":410.5,"geoidSep":47.25}"# + "\r",
        #"{"class":"TPV","mode":2,"altMSL":410.5,"lat":1e-22,"lon":-123456789012345e7}"#,
        #"{"class":"TPV","mode":1,"lat":47.3,"lon":8.5,"altMSL":400}"#,
        #"{"class":"TPV","mode":0,"lat":47.3,"lon":8.5}"#,
        #"{"class":"TPV"}"#,
        #"{"class":"TPV","mode":-4,"status":-1}"#,
        #"{"class":"TPV","mode":9,"status":8,"lat":91.5,"lon":-181}"#,
        #"{"class":"TPV","eph":12.5,"epv":0.0001,"mode":3,"time":"2024-02-29T23:59:59.999999999Z","lat":1.5E+2,"lon":2e-3}"#,
        #"{"class":"TPV","time":"1970-01-01T00:00:00Z","mode":3}"#,
        #"{"class":"TPV","time":"1970-01-01T00:00:01.5Z","mode":3}"#,
        #"{"class":"TPV","time":"2099-12-31T23:59:59.1Z","mode":3}"#,
        #"{"class":"TPV","time":"2000-03-01T00:00:00.000000001Z","mode":3}"#,
        #"{"class":"TPV","lat":999999999999999,"lon":0.00000000000001,"mode":3,"eph":1e22,"epv":1e-22}"#,
        #"{"class":"TPV","device":"","datum":"WGS84","dgpsSta":0,"baseS":1,"relN":1,"velD":-2.5,"mode":3}"#,
        #"{"class":"SKY","device":"/dev/ttyACM0","time":"2026-06-01T09:00:02.000Z","xdop":0.62,"ydop":0.85,"vdop":1.20,"tdop":0.90,"hdop":0.90,"gdop":1.80,"pdop":1.50,"satellites":[{"PRN":5,"el":40.0,"az":120.0,"ss":38.0,"used":true,"gnssid":0,"svid":5},{"PRN":70,"el":20.0,"az":300.0,"ss":30.0,"used":true,"gnssid":6,"svid":6,"sigid":0,"freqid":-2,"health":1},{"PRN":12,"el":5.0,"az":10.0,"ss":0.0,"used":false,"gnssid":0,"svid":12}]}"#,
        #"{"class":"SKY","satellites":[]}"#,
        #"{"class":"SKY","nSat":12,"uSat":9}"#,
        #"{"class":"SKY"}"#,
        #"{"class":"SKY","satellites":[{"PRN":0,"ss":38,"used":true,"gnssid":2},{"PRN":8,"ss":1,"used":true}]}"#,
        #"{"class":"SKY","satellites":[{"used":true,"ss":40,"gnssid":3,"PRN":9},{"ss":38,"used":true}]}"#,
        #"{"class":"SKY","satellites":[{"PRN":-3,"ss":38,"used":true},{"PRN":8,"ss":-1,"used":true},{"PRN":9,"used":true}]}"#,
        #"{"class":"SKY","satellites":[{"PRN":1,"ss":1e22,"used":true,"gnssid":255},{"PRN":2,"ss":-0.0,"used":false}]}"#,
    ]

    /// Lines the fast reader must leave to libgps: what gpsd 3.22 does not write, or what libgps would not read
    /// whole.
    static let refused = [
        #"{"class":"TPV","device":"/dev/tty\u0041","mode":3}"#,
        #"{"class":"TPV","device":"/dev/ttyé","mode":3}"#,
        #"{"class":"TPV","mode":3,"lat":"47.3"}"#,
        #"{"class":"TPV","mode":3.0}"#,
        #"{"class":"TPV","mode":03}"#,
        #"{"class":"TPV","mode":3,"lat":1234567890123456}"#,
        #"{"class":"TPV","mode":3,"lat":1e23}"#,
        #"{"class":"TPV","mode":3,"lat":NaN}"#,
        #"{"class":"TPV","mode":3,"lat":null}"#,
        #"{"class":"TPV","mode":3,"lat":.5}"#,
        #"{"class":"TPV","mode":3,"lat":1.}"#,
        #"{"class":"TPV","mode":3,"lat":1.5}x"#,
        #"{"class":"TPV","mode":3,"lat":1.5}"# + "\r\r",
        #"{"class":"TPV","mode":3,"lat":1.5,"lat":2.5}"#,
        #"{"class":"TPV", "mode":3}"#,
        #"{"class":"TPV","mode":3,"bogus":1}"#,
        #"{"class":"TPV","mode":3,"class":"SKY"}"#,
        #"{"class":"TPV","mode":3,"relN":{"a":1}}"#,
        #"{"class":"TPV","mode":3,"time":"2026-02-30T00:00:00Z"}"#,
        #"{"class":"TPV","mode":3,"time":"2026-06-01T09:00:60Z"}"#,
        #"{"class":"TPV","mode":3,"time":"2026-06-01T09:00:00+01:00"}"#,
        #"{"class":"TPV","mode":3,"time":"2026-06-01T09:00:00.1234567890Z"}"#,
        #"{"class":"TPV","mode":3,"time":"1969-12-31T23:59:59Z"}"#,
        #"{"class":"TPV","mode":3,"device":"\#(String(repeating: "x", count: 64))"}"#,
        #"{"class":"TPVX","mode":3}"#,
        #"{"class":"SKY","satellites":[{}]}"#,
        #"{"class":"SKY","satellites":[{"PRN":5,"used":1}]}"#,
        #"{"class":"SKY","satellites":[{"PRN":5,"gnssid":256}]}"#,
        #"{"class":"SKY","satellites":[{"PRN":5,"svid":677777777777777777777777777777777777}]}"#,
        #"{"class":"TPV","mode":3,"leapseconds":-99999999999999999999}"#,
        #"{"class":"SKY","satellites":[{"PRN":5,"bogus":1}]}"#,
        #"{"class":"SKY","satellites":[{"PRN":5,"PRN":6}]}"#,
        #"{"class":"SKY","satellites":[{"PRN":5}],"satellites":[]}"#,
        #"{"class":"SKY","satellites":[[1]]}"#,
        #"{"class":"SKY","satellites":[{"PRN":5}]"#,
        #"{"class":"SKY","satellites":["#
            + (0...GPSDReport.maximumSatellites).map { #"{"PRN":\#($0 + 1)}"# }.joined(separator: ",") + "]}",
        #"{"class":"TPV","mode":3"# + String(repeating: #","relN":1"#, count: 1_200) + "}",
    ]

    @Test(arguments: accepted)
    func aLineTheFastReaderAcceptsReadsAsLibgpsReadsIt(_ line: String) throws {
        let fast = try #require(Self.fast(line), "left to libgps")
        #expect(fast == Self.libgps(line))
    }

    @Test(arguments: refused)
    func aLineGpsdWouldNotWriteIsLeftToLibgps(_ line: String) {
        #expect(Self.fast(line) == nil)
    }

    @Test func numbersAndTimesConvertAsLibgpsConvertsThem() {
        var generator = SystemRandomNumberGenerator()
        var checked = 0
        for _ in 0..<20_000 {
            let digits = Int.random(in: 1...15, using: &generator)
            var mantissa = String(Int.random(in: 1...9, using: &generator))
            for _ in 1..<digits { mantissa += String(Int.random(in: 0...9, using: &generator)) }
            let point = Int.random(in: 0...digits, using: &generator)
            var number =
                point == digits
                ? mantissa
                : String(mantissa.prefix(point).isEmpty ? "0" : mantissa.prefix(point)) + "."
                    + mantissa.dropFirst(point)
            if Bool.random(using: &generator) { number += "e" + String(Int.random(in: -9...9, using: &generator)) }
            if Bool.random(using: &generator) { number = "-" + number }
            let fraction = String(
                (0..<Int.random(in: 1...9, using: &generator)).map { _ in "0123456789".randomElement()! })
            let time = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02d.%@Z", Int.random(in: 1970...2099, using: &generator),
                Int.random(in: 1...12, using: &generator), Int.random(in: 1...28, using: &generator),
                Int.random(in: 0...23, using: &generator), Int.random(in: 0...59, using: &generator),
                Int.random(in: 0...59, using: &generator), fraction)
            let line =
                #"{"class":"TPV","mode":3,"time":"\#(time)","lat":\#(number),"lon":\#(number),"altMSL":\#(number),"eph":\#(number)}"#
            guard let fast = Self.fast(line) else { continue }
            checked += 1
            #expect(fast == Self.libgps(line), "\(line)")
            if case .fix(let a) = fast, case .fix(let b) = Self.libgps(line),
                a.coordinate?.latitude.bitPattern
                    != b.coordinate?.latitude.bitPattern
            {
                Issue.record("\(line): \(String(describing: a.coordinate)) against \(String(describing: b.coordinate))")
            }
        }
        #expect(checked > 15_000)
    }
}
