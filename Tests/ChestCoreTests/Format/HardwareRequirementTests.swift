import Foundation
import Testing

@testable import ChestCore

/// `compose --require hardware` and `time=…,gps` (docs/SECURITY.md "Hardware trust and time", docs/FORMAT.md).
struct HardwareRequirementTests {
    typealias F = CoreFixture
    static let usb = FixSource(kind: .usb, path: "/dev/ttyACM0", driver: "u-blox", vendorID: "1546", productID: "01a7")
    static let pty = FixSource(kind: .pty, path: "/dev/pts/3", driver: "NMEA0183")

    static func message(requiresHardware: Bool, _ locks: [Lock]) -> Message {
        var message = F.message(pages: [Page(text: "here", setA: locks)])
        message.requiresHardware = requiresHardware
        return message
    }

    /// Three fixes at the tower from `source`; the pages that opened.
    func run(_ message: Message, from source: FixSource) -> (Engine, [Int]) {
        var engine = F.engine([F.stored(message)])
        _ = engine.handle(.receiver(source, F.now(0)))
        var opened: [Int] = []
        for second in 1...3 {
            opened += engine.handle(.fix(F.fix(at: Double(second)), F.now(Double(second)))).unlocks
        }
        return (engine, opened)
    }

    @Test func readSaysTheRequirementAndTheSourceEvenWithoutAFix() {
        let required = Self.message(requiresHardware: true, [.location(center: F.tower, radius: 30)])
        var engine = F.engine([F.stored(required)])
        let noFix = engine.read(required.id, now: F.now(1))
        #expect(noFix?.requiresHardware == true && noFix?.receiver == "no fix yet")
        _ = engine.handle(.receiver(Self.pty, F.now(1)))
        _ = engine.handle(.fix(F.fix(at: 2), F.now(2)))
        #expect(
            engine.read(required.id, now: F.now(2))?.receiver?.hasPrefix("simulated: the receiver is a pseudo-terminal")
                == true)
        var disconnected = F.engine([F.stored(required)], connected: false)
        _ = disconnected.handle(.tick(F.now(1)))
        #expect(disconnected.read(required.id, now: F.now(1))?.receiver == "gpsd not connected")
        let plain = Self.message(requiresHardware: false, [.location(center: F.tower, radius: 30)])
        #expect(F.engine([F.stored(plain)]).read(plain.id, now: F.now(1))?.requiresHardware == false)
    }

    @Test func aMessageThatRequiresHardwareCountsOnlyHardwareFixes() {
        let locks: [Lock] = [.location(center: F.tower, radius: 30), .altitude(Bounds(min: 50, max: 150))]
        let required = Self.message(requiresHardware: true, locks)
        let (simulated, shut) = run(required, from: Self.pty)
        #expect(shut == [])
        let why = simulated.read(required.id, now: F.now(3))?.pages[0].sets[0].locks.map {
            $0.reason?.text(timeZone: .utc, now: F.t0)
        }
        let expected =
            "the organiser asks for a hardware GPS receiver; these fixes are simulated: "
            + "the receiver is a pseudo-terminal (gpsfake or a program writing NMEA)"
        #expect(why == [expected, expected])
        #expect(run(required, from: Self.usb).1 == [1])
        #expect(run(Self.message(requiresHardware: false, locks), from: Self.pty).1 == [1])
    }

    @Test func aGPSTimeLockOpensOnlyOnHardwareGPSTime() {
        let message = Self.message(requiresHardware: false, [.gpsTime(F.t0.addingTimeInterval(2))])
        // The system clock is past the instant, and a simulated feed agrees: still shut.
        var engine = F.engine([F.stored(message)], at: 10)
        _ = engine.handle(.receiver(Self.pty, F.now(10)))
        for second in 11...13 { _ = engine.handle(.fix(F.fix(at: Double(second)), F.now(Double(second)))) }
        #expect(engine.handle(.tick(F.now(14))).unlocks == [])
        #expect(
            engine.read(message.id, now: F.now(14))?.pages[0].sets[0].locks[0].reason
                == .needsHardwareTime(opensAt: F.t0.addingTimeInterval(2)))
        // A hardware receiver's third timed fix confirms GPS time: the lock opens.
        _ = engine.handle(.receiver(Self.usb, F.now(15)))
        var opened: [Int] = []
        for second in 16...18 {
            opened += engine.handle(.fix(F.fix(at: Double(second)), F.now(Double(second)))).unlocks
        }
        #expect(opened == [1])
    }

    @Test func theRequirementAndTheGPSFlagAreSignedFieldsThatRoundTrip() throws {
        var message = Self.message(requiresHardware: true, [.gpsTime(F.t0), .location(center: F.tower, radius: 30)])
        let signed = String(decoding: MessageFile.signedBytes(of: message), as: UTF8.self)
        #expect(signed.contains(#""require":"hardware""#))
        #expect(signed.contains(#""gps":true"#))
        #expect(try MessageFile.decode(MessageFile.encode(message)) == message)
        message.requiresHardware = false
        let plain = String(decoding: MessageFile.signedBytes(of: message), as: UTF8.self)
        #expect(!plain.contains("require"))
        let odd = String(decoding: MessageFile.encode(message), as: UTF8.self)
            .replacingOccurrences(of: #""title""#, with: #""require" : "satellites", "title""#)
        #expect(
            throws: MessageFormatError.invalidField(
                "require", #"unknown requirement "satellites"; this chest knows "hardware""#)
        ) {
            try MessageFile.decode(Data(odd.utf8))
        }
    }

    @Test func composeReadsTheGPSFlag() throws {
        #expect(
            try LockSpec.parse("time=2026-12-24T18:00:00+01:00,gps", timeZone: F.utc)
                == .lock(.gpsTime(ISO8601.parse("2026-12-24T17:00:00Z")!)))
    }
}
