import ChestCore
import ChestIO
import Foundation
import Testing

/// Zones of the tz database through the C library (Sources/ChestCore/Support/Zone.swift).
struct ZoneTests {
    private let zurich = Zone(identifier: "Europe/Zurich")!

    @Test func winterAndSummerTimeHaveTheirOffsetAndAbbreviation() {
        let winter = zurich.local(Date(timeIntervalSince1970: 1_798_128_000))  // 2026-12-24T16:00:00Z
        #expect((winter.year, winter.month, winter.day, winter.hour, winter.minute) == (2026, 12, 24, 17, 0))
        #expect(
            (winter.offset, winter.abbreviation, winter.weekdayName, winter.monthName) == (3600, "CET", "Thu", "Dec"))
        let summer = zurich.local(Date(timeIntervalSince1970: 1_782_000_000))  // 2026-06-21T00:00:00Z
        #expect((summer.hour, summer.offset, summer.abbreviation) == (2, 7200, "CEST"))
    }

    @Test func aLocalTimeReadsBackToItsInstant() {
        let instant = zurich.date(year: 2026, month: 12, day: 24, hour: 18, minute: 0)
        #expect(instant == Date(timeIntervalSince1970: 1_798_131_600))
        #expect(Zone.utc.date(year: 2026, month: 12, day: 24, hour: 18) == Date(timeIntervalSince1970: 1_798_135_200))
        #expect(zurich.date(year: 2026, month: 2, day: 30) == nil)
    }

    @Test func anotherZoneLeavesTheProcessZoneAsItWas() {
        let before = Zone.current.local(Date(timeIntervalSince1970: 1_782_000_000))
        _ = Zone(identifier: "Asia/Tokyo")!.local(Date())
        #expect(Zone.current.local(Date(timeIntervalSince1970: 1_782_000_000)) == before)
    }

    @Test func namesAreAbbreviationsGMTForUTCAndOffsetsWhereTheDatabaseHasNoLetters() {
        let instant = Date(timeIntervalSince1970: 1_798_128_000)
        #expect(Zone.utc.name(Zone.utc.local(instant)) == "GMT")
        let kolkata = Zone(identifier: "Asia/Kolkata")!
        let nepal = Zone(identifier: "Asia/Kathmandu")!
        #expect(kolkata.name(kolkata.local(instant)) == "IST")
        #expect(nepal.name(nepal.local(instant)) == "GMT+5:45")
        #expect(LockReason.format(instant, zurich, seconds: true) == "2026-12-24 17:00:00 CET")
        #expect(LockReason.clock(instant, zurich) == "17:00:00")
    }

    @Test(arguments: ["Mars/Olympus", "", "../../etc/passwd", "/etc/localtime"])
    func anUnknownZoneIsNone(_ name: String) {
        #expect(Zone(identifier: name) == nil)
    }

    @Test func aTimeWithoutAZoneIsReadInTheLocalZone() {
        #expect(ISO8601.parse("2026-12-24 18:00", localZone: zurich) == Date(timeIntervalSince1970: 1_798_131_600))
        #expect(ISO8601.parse("2026-12-24T18:00:30", localZone: zurich) == Date(timeIntervalSince1970: 1_798_131_630))
        #expect(ISO8601.parse("2026-12-24", localZone: zurich) == Date(timeIntervalSince1970: 1_798_066_800))
        #expect(ISO8601.parse("2026-12-24 18:00") == nil)
        #expect(ISO8601.parse("2026-12-24 18", localZone: zurich) == nil)
    }
}
