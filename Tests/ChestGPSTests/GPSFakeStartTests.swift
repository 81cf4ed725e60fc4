import ChestTestSupport
import Foundation
import Testing

/// The harness tells a gpsfake whose device never reached gpsd (its add refused on gpsd's control socket, which
/// gpsfake does not report) from one that is ready, by asking gpsd for its devices as a client would.
@Suite(.realProcesses, .tags(.process, .gpsd), .timeLimit(.minutes(1)))
struct GPSFakeStartTests {
    static let version = #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#

    @Test func aGpsdWithoutADeviceIsNotReady() throws {
        let gpsd = try LineServer(lines: [Self.version, #"{"class":"DEVICES","devices":[]}"#])
        defer { gpsd.stop() }
        #expect(!GPSFake.waitForADevice(port: gpsd.port, timeout: 0.5))
    }

    @Test func aGpsdListingADeviceIsReady() throws {
        let gpsd = try LineServer(lines: [
            Self.version,
            #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/pts/1","native":0,"bps":38400}]}"#,
        ])
        defer { gpsd.stop() }
        #expect(GPSFake.waitForADevice(port: gpsd.port, timeout: 5))
    }

    @Test func gpsfakeStartsWithItsDeviceAdded() throws {
        let fake = try GPSFake(log: GPSLogs.directory.appendingPathComponent("garmin-10x.log"))
        defer { fake.stop() }
        #expect(GPSFake.waitForADevice(port: fake.port, timeout: 1))
    }
}
