import ChestCore
@testable import ChestGPS
import ChestIO
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// gpsd's DEVICES report, which libgps 3.22 must never see: found by the gps fuzzer (docs/RELIABILITY.md "Fuzzing").
@Suite(.serialized, .timeLimit(.minutes(1)))
struct DevicesReportTests {
    /// Five devices: one more than libgps 3.22 holds, which made its `gps_unpack` loop forever.
    static let fiveDevices = #"{"class":"DEVICES","devices":["#
        + (0..<5).map { #"{"class":"DEVICE","path":"/dev/ttyACM\#($0)","driver":"u-blox","activated":"2026-01-01T00:00:00.000Z"}"# }
            .joined(separator: ",") + "]}"

    @Test func theFirstDeviceIsReadWithoutLibgps() {
        let line = Data(DevicesReportTests.fiveDevices.utf8)
        #expect(DevicesReport.isIn(line))
        #expect(DevicesReport.firstDevice(in: line) == .init(path: "/dev/ttyACM0", driver: "u-blox", subtype: ""))
        let wrongType = Data(#"{"class":"DEVICES","devices":[{"class":"DEVICE","path":1,"x":[1]}]}"#.utf8)
        #expect(DevicesReport.firstDevice(in: wrongType) == .init(path: "", driver: "", subtype: ""))
        // libgps unpacks every object of a line: a DEVICES after a TPV is one too.
        #expect(DevicesReport.isIn(Data(#"{"class":"TPV","mode":1}{"class":"DEVICES","devices":[]}"#.utf8)))
        #expect(!DevicesReport.isIn(Data(#"{"class":"DEVICE","path":"/dev/ttyACM0"}"#.utf8)))
        #expect(DevicesReport.firstDevice(in: Data(#"{"class":"DEVICES","devices":[]}"#.utf8)) == nil)
        #expect(DevicesReport.firstDevice(in: Data(#"{"class":"DEVICES","devices":[{"class":"DEVICE"}x]}"#.utf8)) == nil)
    }

    @Test func aDevicesReportLibgpsCannotParseDoesNotStopTheFixes() async throws {
        let server = try LineServer(lines: [
            #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#,
            DevicesReportTests.fiveDevices,
            #"{"class":"DEVICES","devices":[{"class":"DEVICE"}x]}"#,
            #"{"class":"WATCH","enable":true,"json":true,"nmea":false,"raw":0,"scaled":false,"timing":false,"split24":false,"pps":false}"#,
            #"{"class":"TPV","device":"/dev/ttyACM0","mode":3,"time":"2026-06-01T09:00:00.000Z","lat":47.3769,"lon":8.5417,"altMSL":410.0,"eph":5.0}"#,
        ])
        defer { server.stop() }
        let events = EventRecorder<GPSEvent>()
        let reader = GPSReader(host: "127.0.0.1", port: String(server.port), log: Log(sink: { _ in }),
                               receivers: ReceiverSource(sysfsRoot: "/nonexistent"), onEvent: events.record)
        reader.start()
        defer { reader.stop() }
        let fix = { (events: [GPSEvent]) in events.compactMap { if case .fix(let fix) = $0 { fix } else { nil } }.first }
        #expect(await events.wait(timeout: 10) { fix($0) != nil })
        #expect(fix(events.all)?.coordinate == Coordinate(latitude: 47.3769, longitude: 8.5417))
        #expect(fix(events.all)?.altitudeMSL == 410)
        let sources = events.all.compactMap { if case .receiver(let source) = $0 { source } else { nil } }
        #expect(sources.map(\.path) == ["/dev/ttyACM0"])
        #expect(sources.first?.driver == "u-blox")
    }
}

/// A loopback server that sends fixed lines to the one client it accepts, then keeps the connection open: a gpsd
/// that says what a test wants, which a real gpsd would not.
private final class LineServer: Sendable {
    let port: Int
    private let listener: Int32

    init(lines: [String]) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 1) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw Errno.current
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        let text = lines.map { $0 + "\n" }.joined()
        Thread {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            defer { close(client) }
            _ = text.withCString { send(client, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
            var byte: UInt8 = 0
            while recv(client, &byte, 1, 0) > 0 {}
        }.start()
    }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
