import ChestCore
import ChestIO
import Foundation
import Testing

/// Times in message files must be canonical: the seal covers the re-encoded bytes, so an instant read back from a
/// file must write the very same string (a time 0.4 ms past a second once broke the seal of 1 file in 1,000).
struct ISO8601Tests {
    @Test func writingIsCanonicalAcrossAReadBack() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let date = Date(timeIntervalSince1970: Double.random(in: 1_700_000_000...1_900_000_000, using: &generator))
            let text = ISO8601.string(date)
            #expect(ISO8601.string(ISO8601.parse(text)!) == text, "\(date.timeIntervalSince1970)")
        }
    }

    @Test(arguments: [
        (1_800_000_000.0, "2027-01-15T08:00:00Z"),
        (1_800_000_000.0004, "2027-01-15T08:00:00Z"),
        (1_800_000_000.25, "2027-01-15T08:00:00.250Z"),
        (1_800_000_000.9996, "2027-01-15T08:00:01Z"),
        (-0.5, "1969-12-31T23:59:59.500Z"),
    ])
    func writesUTCToTheMillisecond(_ seconds: Double, _ text: String) {
        #expect(ISO8601.string(Date(timeIntervalSince1970: seconds)) == text)
        var bytes = Array("x".utf8)
        ISO8601.append(Date(timeIntervalSince1970: seconds), to: &bytes)
        #expect(bytes == Array(("x" + text).utf8))
    }

    /// The bytes chestd's track is written with are `string`'s, in and beyond the years written in place.
    @Test(arguments: [0.0, 1_800_000_000, -62_167_219_200, -62_167_219_201, 253_402_300_799, 253_402_300_800])
    func appendWritesTheSameBytesAsString(_ seconds: Double) {
        var bytes: [UInt8] = []
        ISO8601.append(Date(timeIntervalSince1970: seconds), to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == ISO8601.string(Date(timeIntervalSince1970: seconds)))
    }

    @Test(arguments: ["2026-12-24T18:00:00+01:00", "2026-12-24T17:00:00Z", "2026-12-24T17:00:00.000Z"])
    func readsZonedForms(_ text: String) {
        #expect(ISO8601.parse(text) == Date(timeIntervalSince1970: 1_798_131_600))
    }

    @Test func aTimeWithoutAZoneNeedsOne() {
        #expect(ISO8601.parse("2026-12-24T18:00:00") == nil)
        #expect(
            ISO8601.parse("2026-12-24T18:00", localZone: Zone(identifier: "Europe/Paris")!)
                == Date(timeIntervalSince1970: 1_798_131_600))
    }
}

/// The arithmetic reader and writer agree with Foundation's on every kind of date, leap years included.
struct RFC3339AgreementTests {
    @Test func agreesWithFoundation() {
        var generator = SystemRandomNumberGenerator()
        let style = Date.ISO8601FormatStyle()
        for _ in 0..<2_000 {
            let seconds = Double(Int.random(in: -2_000_000_000...4_000_000_000, using: &generator))
            let date = Date(timeIntervalSince1970: seconds)
            #expect(ISO8601.string(date) == style.format(date))
            #expect(ISO8601.parse(style.format(date)) == date)
        }
        #expect(ISO8601.parse("2024-02-29T12:00:00Z") != nil)
        #expect(ISO8601.parse("2023-02-29T12:00:00Z") == nil)
        #expect(ISO8601.parse("2026-13-01T00:00:00Z") == nil)
        #expect(ISO8601.parse("2026-12-24T18:00:00+0100") == ISO8601.parse("2026-12-24T17:00:00Z"))
        #expect(ISO8601.parse("2026-12-24T17:00:00Zjunk") == nil)
    }
}
