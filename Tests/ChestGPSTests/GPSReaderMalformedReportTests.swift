import ChestCore
import ChestGPS
import ChestIO
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// GPSReader against a gpsd that sends what gpsd 3.22 would not: reports libgps cannot parse, which made its
/// `gps_unpack` loop forever (found by the gps fuzzer, docs/RELIABILITY.md "Fuzzing").
@Suite(.realProcesses, .tags(.process), .timeLimit(.minutes(1)))
struct GPSReaderMalformedReportTests {
    @Test func aReportLibgpsCannotParseIsSkippedAndTheFixesGoOn() async throws {
        let fiveDevices =
            #"{"class":"DEVICES","devices":["#
            + (0..<5).map { #"{"class":"DEVICE","path":"/dev/ttyACM\#($0)","driver":"u-blox"}"# }.joined(separator: ",")
            + "]}"
        let server = try LineServer(lines: [
            #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#,
            // One device more than libgps holds, then a malformed list, then the first "class" inside the list.
            fiveDevices,
            #"{"class":"DEVICES","devices":[{"class":"DEVICE"}x]}"#,
            #"{"klass":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyACM0"},{"class":"DEVICE","path":"/dev/ttyACM1"}]}"#,
            #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyACM0","driver":"u-blox"}]}"#,
            #"{"class":"TPV","device":"/dev/ttyACM0","mode":3,"time":"2026-06-01T09:00:00.000Z","lat":47.3769,"lon":8.5417,"altMSL":410.0}"#,
        ])
        defer { server.stop() }
        let events = EventRecorder<GPSEvent>()
        let reader = GPSReader(
            host: "127.0.0.1", port: String(server.port), log: Log(sink: { _ in }),
            receivers: ReceiverSource(sysfsRoot: "/nonexistent"), onEvent: events.record)
        reader.start()
        defer { reader.stop() }
        let fix = { (events: [GPSEvent]) in events.compactMap { if case .fix(let fix) = $0 { fix } else { nil } }.first
        }
        #expect(await events.wait(timeout: 10) { fix($0) != nil })
        #expect(fix(events.all)?.coordinate == Coordinate(latitude: 47.3769, longitude: 8.5417))
        #expect(fix(events.all)?.altitudeMSL == 410)
        let sources = events.all.compactMap { if case .receiver(let source) = $0 { source } else { nil } }
        #expect(sources.map(\.path) == ["/dev/ttyACM0"])
        #expect(sources.first?.driver == "u-blox")
    }
}
