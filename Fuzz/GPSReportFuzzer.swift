import CGPSD
import Foundation

/// libFuzzer entry point for gpsd's reports: the bytes are lines of gpsd JSON (TPV, SKY, DEVICE, DEVICES,
/// VERSION…), each unpacked once by libgps's `libgps_json_unpack` into one `gps_data_t` and taken as
/// `GPSReader.read` takes it: a TPV becomes a `Fix` with the latest SKY's satellites and summary, a DEVICE or
/// DEVICES a `FixSource`. Fixes and sources then go through the pure engine (trust, clock, streaks), and every
/// event and the `status` and `fix` replies are written as chestd writes them. Any bytes must be
/// unpacked, converted and reported or ignored, never crash nor hang (docs/RELIABILITY.md "Fuzzing"). Built by
/// scripts/fuzz.sh with ChestCore's sources, ChestGPS's conversions and libgps, outside the package, so
/// `swift build` and `make test` never see it. Every TPV and SKY that `GPSDReport` (chestd's own reader of them)
/// accepts must give the fix, satellite count and sky summary libgps gives, or the fuzzer stops.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGPSReports(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: start, count: count)
    report.initialize(to: gps_data_t())
    var engine = Engine(gpsServer: "localhost:2947")
    var now = Now(wall: Date(timeIntervalSince1970: 1_800_000_000), monotonic: 1000)
    var effects = engine.handle(.gpsLink(connected: true, server: "localhost:2947", reason: nil))
    var satellitesUsed: Int?
    var sky: SkySummary?
    var skySerial = 0
    // As GPSReader.read takes them: one line at a time into the same gps_data_t, `set` cleared before each.
    for line in input.split(separator: UInt8(ascii: "\n")).prefix(64)
    where line.first == UInt8(ascii: "{") && line.count <= lineCapacity {
        now = now.advanced(by: 0.2)
        UnsafeMutableRawBufferPointer(start: text, count: line.count)
            .copyMemory(from: UnsafeRawBufferPointer(rebasing: line))
        text[line.count] = 0
        report.pointee.set = 0
        let fast = GPSDReport.parse(UnsafeRawBufferPointer(rebasing: line))
        var rest: UnsafePointer<CChar>?
        _ = libgps_json_unpack(text, report, &rest)
        let set = report.pointee.set
        // Differential: what chestd's own reader accepts must read as libgps reads it.
        switch fast {
        case .tpv(let tpv):
            let expected = Fix(
                UnsafePointer(report), satellitesUsed: satellitesUsed, sky: sky, receivedAt: now.monotonic)
            let actual = Fix(tpv, satellitesUsed: satellitesUsed, sky: sky, receivedAt: now.monotonic)
            if expected != actual {
                fatalError("TPV read apart from libgps: \(String(describing: expected)) against \(actual)")
            }
        case .sky(let fastSky):
            let visible = report.pointee.satellites_visible > 0
            let used = set & SATELLITE_SET != 0 && visible ? Int(report.pointee.satellites_used) : nil
            let summary =
                set & SATELLITE_SET != 0 && visible ? SkySummary(UnsafePointer(report), serial: skySerial + 1) : nil
            if set & SATELLITE_SET == 0 || used != fastSky.satellitesUsed
                || summary != fastSky.summary(serial: skySerial + 1)
            {
                fatalError(
                    "SKY read apart from libgps: \(String(describing: used)) \(String(describing: summary)) against "
                        + "\(String(describing: fastSky.satellitesUsed)) \(String(describing: fastSky.summary(serial: skySerial + 1)))"
                )
            }
        case nil:
            break
        }
        if let fix = Fix(UnsafePointer(report), satellitesUsed: satellitesUsed, sky: sky, receivedAt: now.monotonic) {
            effects += engine.handle(.fix(fix, now))
            _ = fix.mode.description
        } else if set & SATELLITE_SET != 0 {
            satellitesUsed = report.pointee.satellites_visible > 0 ? Int(report.pointee.satellites_used) : nil
            skySerial += 1
            sky = report.pointee.satellites_visible > 0 ? SkySummary(UnsafePointer(report), serial: skySerial) : nil
        } else if set & DEVICE_SET != 0, report.pointee.dev.activated.tv_sec != 0 {
            effects += engine.handle(.receiver(identify(report.pointee.dev), now))
        } else if set & DEVICELIST_SET != 0, report.pointee.devices.ndevices > 0 {
            let first = withUnsafeBytes(of: report.pointee.devices.list) { $0.bindMemory(to: devconfig_t.self)[0] }
            effects += engine.handle(.receiver(identify(first), now))
        }
    }
    effects += engine.handle(.request(ClientID(1), .status, now))
    effects += engine.handle(.request(ClientID(2), .fix, now))
    for effect in effects {
        switch effect {
        case let .emit(event), let .send(_, event):
            _ = ChestJSON.line(event)
            _ = event.logLine
            _ = event.scalarFields
        case let .reply(_, reply):
            _ = reply.line
        default:
            break
        }
    }
    return 0
}

/// gpsd's longest JSON report, as GPSReader reads it.
private let lineCapacity = 10_240
/// Allocated once: a gps_data_t is large, and libFuzzer calls the entry point on one thread.
nonisolated(unsafe) private let report = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
nonisolated(unsafe) private let text = UnsafeMutablePointer<CChar>.allocate(capacity: lineCapacity + 1)
/// Nothing under this root: the device path is placed by its name alone, as on a machine without that tty.
private let receivers = ReceiverSource(sysfsRoot: "/nonexistent-sysfs")

/// The source of a device gpsd reports, as GPSReader identifies it.
private func identify(_ device: devconfig_t) -> FixSource {
    var device = device
    func field<T>(_ value: inout T) -> String {
        withUnsafeBytes(of: &value) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
    return receivers.identify(path: field(&device.path), driver: field(&device.driver), subtype: field(&device.subtype))
}
