import ChestCore
import Foundation
import Testing

/// The POSIX `TZ` rules and the TZif files a zone is read from, on hand-made input
/// (Sources/ChestCore/Support/PosixZoneRule.swift, TZif.swift).
struct ZoneRulesTests {
    /// Seconds since 1970 of a UTC date and time.
    static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0) -> Int64 {
        Int64(Zone.utc.date(year: year, month: month, day: day, hour: hour, minute: minute)!.timeIntervalSince1970)
    }

    @Test func aRuleWithMonthWeekDayChangesOnTheLastSundays() throws {
        let rule = try #require(PosixZoneRule("CET-1CEST,M3.5.0,M10.5.0/3"))
        #expect(rule.standard == ZoneOffset(offset: 3600, abbreviation: "CET"))
        // 2026: summer time from 29 March 01:00 UTC to 25 October 01:00 UTC.
        #expect(rule.offset(at: Self.utc(2026, 3, 29, 0, 59)).abbreviation == "CET")
        #expect(
            rule.offset(at: Self.utc(2026, 3, 29, 1))
                == ZoneOffset(offset: 7200, isDaylight: true, abbreviation: "CEST"))
        #expect(rule.offset(at: Self.utc(2026, 10, 25, 0, 59)).offset == 7200)
        #expect(rule.offset(at: Self.utc(2026, 10, 25, 1)).offset == 3600)
        // Far past 2038: the same rule each year (2100's last Sunday of March is the 28th).
        #expect(rule.offset(at: Self.utc(2100, 3, 28, 1)).offset == 7200)
        #expect(rule.offset(at: Self.utc(2100, 3, 28, 0, 59)).offset == 3600)
    }

    @Test func theSouthernSummerSpansTheNewYear() throws {
        // Australia/Sydney: summer time from the first Sunday of October to the first Sunday of April.
        let rule = try #require(PosixZoneRule("AEST-10AEDT,M10.1.0,M4.1.0/3"))
        #expect(rule.offset(at: Self.utc(2027, 1, 1)).abbreviation == "AEDT")
        #expect(rule.offset(at: Self.utc(2027, 7, 1)).abbreviation == "AEST")
        // 4 April 2027 03:00 AEDT is 16:00 UTC the day before; 3 October 02:00 AEST is 16:00 UTC on 2 October.
        #expect(rule.offset(at: Self.utc(2027, 4, 3, 15, 59)).offset == 39_600)
        #expect(rule.offset(at: Self.utc(2027, 4, 3, 16)).offset == 36_000)
        #expect(rule.offset(at: Self.utc(2027, 10, 2, 15, 59)).offset == 36_000)
        #expect(rule.offset(at: Self.utc(2027, 10, 2, 16)).offset == 39_600)
    }

    @Test func julianAndOrdinalDaysAndTimesPastMidnight() throws {
        // Jn never counts 29 February; n does. J60 is 1 March in any year, 59 is 29 February in a leap year.
        let julian = try #require(PosixZoneRule("AAA3BBB,J60/0,J300/0"))
        #expect(julian.offset(at: Self.utc(2028, 3, 1, 2, 59)).abbreviation == "AAA")
        #expect(julian.offset(at: Self.utc(2028, 3, 1, 3)).abbreviation == "BBB")
        let ordinal = try #require(PosixZoneRule("AAA3BBB,59/0,299/0"))
        #expect(ordinal.offset(at: Self.utc(2028, 2, 29, 3)).abbreviation == "BBB")
        #expect(ordinal.offset(at: Self.utc(2027, 3, 1, 3)).abbreviation == "BBB")
        #expect(ordinal.offset(at: Self.utc(2027, 3, 1, 2, 59)).abbreviation == "AAA")
        // Version 3: summer time all year ("EST5EDT,0/0,J365/25"), and negative hours ("<-02>2<-01>,M3.5.0/-1,...").
        let always = try #require(PosixZoneRule("EST5EDT,0/0,J365/25"))
        for year in [2026, 2027, 2028, 2100] {
            #expect(always.offset(at: Self.utc(year, 1, 1, 5)).abbreviation == "EDT", "\(year)")
            #expect(always.offset(at: Self.utc(year, 12, 31, 23)).abbreviation == "EDT", "\(year)")
        }
        let godthab = try #require(PosixZoneRule("<-02>2<-01>,M3.5.0/-1,M10.5.0/0"))
        #expect(godthab.daylight?.start.time == -3600)
        // 2026: -1:00 on Sunday 29 March is Saturday 28 March 23:00 at -02, 01:00 UTC.
        #expect(godthab.offset(at: Self.utc(2026, 3, 29, 0, 59)).abbreviation == "-02")
        #expect(godthab.offset(at: Self.utc(2026, 3, 29, 1)).abbreviation == "-01")
    }

    @Test func summerTimeWithoutDaysChangesAsTheUSDoesAndAnOffsetDefaultsToAnHourMore() throws {
        let rule = try #require(PosixZoneRule("EST5EDT"))
        #expect(rule.daylight?.offset == ZoneOffset(offset: -4 * 3600, isDaylight: true, abbreviation: "EDT"))
        // 2026: second Sunday of March (8th) 02:00 EST = 07:00 UTC; first Sunday of November (1st) 02:00 EDT = 06:00.
        #expect(rule.offset(at: Self.utc(2026, 3, 8, 7)).abbreviation == "EDT")
        #expect(rule.offset(at: Self.utc(2026, 3, 8, 6, 59)).abbreviation == "EST")
        #expect(rule.offset(at: Self.utc(2026, 11, 1, 6)).abbreviation == "EST")
        let fixed = try #require(PosixZoneRule("<+0545>-5:45"))
        #expect(fixed.daylight == nil && fixed.offset(at: 0) == ZoneOffset(offset: 20_700, abbreviation: "+0545"))
    }

    @Test(arguments: [
        "", "C-1", "CET", "CET-1CEST,M3.5.0", "CET-1CEST,M13.5.0,M10.5.0", "CET-1CEST,M3.6.0,M10.5.0",
        "CET-1CEST,J0,J100", "CET-25", "<+05>", "CET-1CEST,M3.5.0,M10.5.0/3 ", "CET-1CEST,M3.5.0/168,M10.5.0",
    ])
    func aMalformedRuleIsNone(_ text: String) {
        #expect(PosixZoneRule(text) == nil)
    }

    /// A TZif file of `version` ("2", "3", or "\0" for 1): the 32-bit block, then for 2 and later the 64-bit block
    /// and the footer. The 32-bit block of a version 2 file says something else, so that reading it would show.
    static func tzif(
        version: Character, transitions: [Int64], indices: [UInt8], types: [(Int32, Bool, UInt8)], names: String,
        leaps: Int = 0, footer: String = ""
    ) -> [UInt8] {
        func big(_ value: Int64, _ size: Int) -> [UInt8] {
            (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
        }
        func block(_ timeSize: Int, _ transitions: [Int64], _ types: [(Int32, Bool, UInt8)]) -> [UInt8] {
            var bytes =
                Array("TZif".utf8) + [UInt8(ascii: version.unicodeScalars.first!)] + [UInt8](repeating: 0, count: 15)
            for count in [0, 0, leaps, transitions.count, types.count, names.utf8.count] {
                bytes += big(Int64(count), 4)
            }
            for time in transitions { bytes += big(time, timeSize) }
            bytes += indices
            for (offset, daylight, name) in types { bytes += big(Int64(offset), 4) + [daylight ? 1 : 0, name] }
            bytes += Array(names.utf8)
            for _ in 0..<leaps { bytes += big(1, timeSize) + big(1, 4) }
            return bytes
        }
        guard version != "\0" else { return block(4, transitions, types) }
        return block(4, transitions.map { _ in 0 }, types.map { (99, $0.1, $0.2) }) + block(8, transitions, types)
            + Array("\n\(footer)\n".utf8)
    }

    @Test func aVersion2FileIsReadFromIts64BitDataAndFooter() throws {
        // LMT until 1894, then CET; in 2040 (past 32 bits) CEST; after it, the footer's rule.
        let bytes = Self.tzif(
            version: "2", transitions: [-2_385_246_586, 2_216_250_000], indices: [1, 2],
            types: [(2048, false, 0), (3600, false, 4), (7200, true, 8)], names: "LMT\0CET\0CEST\0", leaps: 2,
            footer: "CET-1CEST,M3.5.0,M10.5.0/3")
        let rules = try TZif.rules(bytes)
        #expect(rules.offset(at: -3_000_000_000) == ZoneOffset(offset: 2048, abbreviation: "LMT"))
        #expect(rules.offset(at: 0) == ZoneOffset(offset: 3600, abbreviation: "CET"))
        #expect(rules.offset(at: 2_216_250_000).abbreviation == "CEST")
        // After the last transition the footer decides: summer 2050 is CEST, winter 2050 CET.
        #expect(rules.offset(at: Self.utc(2050, 7, 1)).abbreviation == "CEST")
        #expect(rules.offset(at: Self.utc(2050, 12, 1)).abbreviation == "CET")
        let zone = Zone(identifier: "Test/Zone", rules: rules)
        #expect(LockReason.format(Date(timeIntervalSince1970: 0), zone) == "1970-01-01 01:00 CET")
    }

    @Test func aVersion1FileKeepsItsLastOffsetAndBeforeTheFirstTheFirstStandardOne() throws {
        let bytes = Self.tzif(
            version: "\0", transitions: [0, 1000], indices: [0, 1], types: [(7200, true, 0), (3600, false, 5)],
            names: "XDST\0XST\0")
        let rules = try TZif.rules(bytes)
        #expect(rules.footer == nil)
        #expect(rules.offset(at: -1).abbreviation == "XST")
        #expect(rules.offset(at: 999).abbreviation == "XDST")
        #expect(rules.offset(at: Self.utc(2100, 1, 1)).abbreviation == "XST")
    }

    @Test func damagedFilesAreErrorsNotZones() throws {
        let good = Self.tzif(
            version: "3", transitions: [0], indices: [0], types: [(3600, false, 0)], names: "CET\0",
            footer: "CET-1")
        #expect(try TZif.rules(good).offset(at: 5).abbreviation == "CET")
        for cut in [0, 10, 44, good.count / 2, good.count - 1] {
            #expect(throws: TZif.FormatError.self, "cut at \(cut)") { try TZif.rules(Array(good[..<cut])) }
        }
        var badIndex = good
        // The 64-bit block's only type index, after the 32-bit block (44 + 15 bytes) and its header and transition.
        badIndex[44 + 15 + 44 + 8] = 7
        #expect(throws: TZif.FormatError.self) { try TZif.rules(badIndex) }
        #expect(throws: TZif.FormatError.self) { try TZif.rules(Array("# not a zone\n".utf8)) }
        let badFooter = Self.tzif(
            version: "2", transitions: [0], indices: [0], types: [(3600, false, 0)], names: "CET\0", footer: "nonsense")
        #expect(throws: TZif.FormatError.self) { try TZif.rules(badFooter) }
        let unordered = Self.tzif(
            version: "2", transitions: [10, 5], indices: [0, 0], types: [(3600, false, 0)], names: "CET\0")
        #expect(throws: TZif.FormatError.self) { try TZif.rules(unordered) }
    }

    @Test func fixedOffsetsAreArithmetic() {
        let plusTwo = Zone(offset: 7200)
        #expect(plusTwo.identifier == "+02:00")
        let local = plusTwo.local(Date(timeIntervalSince1970: 1_798_128_000))
        #expect((local.hour, local.offset, local.abbreviation, plusTwo.name(local)) == (18, 7200, "+02", "GMT+2"))
        let minus = Zone(offset: -(9 * 3600 + 1800))
        #expect(minus.identifier == "-09:30" && minus.name(minus.local(Date())) == "GMT-9:30")
        #expect(Zone(offset: 0) == .utc)
        #expect(plusTwo.date(year: 2026, month: 12, day: 24, hour: 18) == Date(timeIntervalSince1970: 1_798_128_000))
        let before1970 = Zone.utc.local(Date(timeIntervalSince1970: -1))
        #expect((before1970.year, before1970.hour, before1970.second, before1970.weekdayName) == (1969, 23, 59, "Wed"))
    }
}
