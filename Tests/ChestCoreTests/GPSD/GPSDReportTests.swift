import Testing

@testable import ChestCore

struct GPSDReportTests {
    @Test(arguments: GPSDReportReader.Key.allCases)
    func everyKeyIsPackedFromItsOwnName(_ key: GPSDReportReader.Key) {
        var head: UInt64 = 0
        var tail: UInt64 = 0
        for (index, byte) in String(describing: key).utf8.enumerated() {
            if index < 8 { head |= UInt64(byte) << (8 * index) } else { tail |= UInt64(byte) << (8 * (index - 8)) }
        }
        #expect(key.rawValue == head)
        #expect(key.tail == tail)
    }

    @Test func aSkyWithoutSatellitesGivesNeitherACountNorASummaryWhateverItsUSat() throws {
        guard case .sky(let sky) = try #require(GPSDReport.parse(#"{"class":"SKY","nSat":12,"uSat":9}"#)) else {
            Issue.record("not a SKY")
            return
        }
        #expect(sky.satellitesUsed == nil)
        #expect(sky.summary(serial: 1) == nil)
    }

    @Test func usedSatellitesAreCountedOverTheListAndSummarisedOverItsFirstVisibleEntries() throws {
        let line =
            #"{"class":"SKY","satellites":[{"PRN":0,"ss":38,"used":true,"gnssid":2},{"PRN":8,"ss":30,"used":true,"gnssid":0}]}"#
        guard case .sky(let sky) = try #require(GPSDReport.parse(line)) else {
            Issue.record("not a SKY")
            return
        }
        // As libgps 3.22 fills its skyview: one visible (PRN above 0), two used, the first entry summarised.
        #expect(sky.visible == 1)
        #expect(sky.satellitesUsed == 2)
        let summary = try #require(sky.summary(serial: 4))
        #expect(summary.usedWithSignal == 1 && summary.constellations == 1 << 2 && summary.serial == 4)
    }

    @Test func aTPVTimeIsReadToTheNanosecondAsLibgpsTruncatesIt() throws {
        guard
            case .tpv(let tpv) = try #require(
                GPSDReport.parse(#"{"class":"TPV","mode":3,"time":"2026-06-01T09:00:02.123456789Z"}"#))
        else {
            Issue.record("not a TPV")
            return
        }
        #expect(tpv.seconds == 1_780_304_402)
        #expect(tpv.nanoseconds == Int(0.123456789 * 1e9))
        #expect(tpv.mode == 3 && tpv.latitude.isNaN)
    }
}
