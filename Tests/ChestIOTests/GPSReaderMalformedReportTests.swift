import ChestCore
import ChestGPS
import ChestIO
import ChestTestSupport
import Foundation
import Glibc
import Testing

/// GPSReader against a gpsd that sends what gpsd 3.22 would not: reports libgps cannot parse, which made its
/// `gps_unpack` loop forever (found by the gps fuzzer, docs/RELIABILITY.md "Fuzzing").
@Suite(.serialized, .timeLimit(.minutes(1)))
struct GPSReaderMalformedReportTests {
    @Test func aReportLibgpsCannotParseIsSkippedAndTheFixesGoOn() async throws {
        let fiveDevices = #"{"class":"DEVICES","devices":["#
            + (0..<5).map { #"{"class":"DEVICE","path":"/dev/ttyACM\#($0)","driver":"u-blox"}"# }.joined(separator: ",") + "]}"
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
