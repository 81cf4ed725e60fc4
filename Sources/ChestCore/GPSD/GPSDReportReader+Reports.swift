/// The two reports the reader knows, member by member (docs/DESIGN.md "The fast path for TPV and SKY").
extension GPSDReportReader {
    /// The rest of a TPV after its class: a member that is not one of gpsd 3.22's TPV keys with the type libgps
    /// expects, a repeated key that counts, or anything after the `}` makes it libgps's.
    mutating func tpv() -> GPSDReport.TPV? {
        var report = GPSDReport.TPV()
        var seen: UInt16 = 0
        func first(_ bit: UInt16) -> Bool {
            defer { seen |= bit }
            return seen & bit == 0
        }
        while true {
            guard let member = member() else { return nil }
            guard case .key(let key) = member else { return atEnd ? report : nil }
            switch key {
            case .mode:
                guard first(1 << 0), let value = integer() else { return nil }
                report.mode = value
            case .status:
                guard first(1 << 1), let value = integer() else { return nil }
                report.status = value
            case .lat:
                guard first(1 << 2), let value = real() else { return nil }
                report.latitude = value
            case .lon:
                guard first(1 << 3), let value = real() else { return nil }
                report.longitude = value
            case .altHAE:
                guard first(1 << 4), let value = real() else { return nil }
                report.altHAE = value
            case .altMSL:
                guard first(1 << 5), let value = real() else { return nil }
                report.altMSL = value
            case .geoidSep:
                guard first(1 << 6), let value = real() else { return nil }
                report.geoidSeparation = value
            case .eph:
                guard first(1 << 7), let value = real() else { return nil }
                report.eph = value
            case .epv:
                guard first(1 << 8), let value = real() else { return nil }
                report.epv = value
            case .time:
                guard first(1 << 9), let value = time() else { return nil }
                (report.seconds, report.nanoseconds) = value
            case .leapseconds, .dgpsSta, .baseS:
                guard integer() != nil else { return nil }
            case .device, .datum:
                guard string() != nil else { return nil }
            case .ept, .alt, .epc, .epd, .eps, .epx, .epy, .track, .magtrack, .magvar, .speed, .climb, .ecefx,
                .ecefy, .ecefz, .ecefvx, .ecefvy, .ecefvz, .ecefpAcc, .ecefvAcc, .sep, .relN, .relE, .relD, .relH,
                .relL, .velN, .velE, .velD, .depth, .dgpsAge, .dgpsRatio, .wanglem, .wangler, .wanglet, .wspeedr,
                .wspeedt, .baseE, .baseN, .baseU, .baseL, .baseC:
                guard real() != nil else { return nil }
            default:
                return nil
            }
        }
    }

    /// The rest of a SKY after its class, by the same rules; its `satellites` is a list of flat objects.
    mutating func sky() -> GPSDReport.Sky? {
        var satellites: [GPSDReport.Satellite] = []
        var listed = false
        while true {
            guard let member = member() else { return nil }
            guard case .key(let key) = member else { return atEnd ? GPSDReport.Sky(satellites: satellites) : nil }
            switch key {
            case .device, .time:
                guard string() != nil else { return nil }
            case .hdop, .xdop, .ydop, .vdop, .tdop, .pdop, .gdop:
                guard real() != nil else { return nil }
            case .nSat, .uSat:
                guard integer() != nil else { return nil }
            case .satellites:
                guard !listed, skip("[") else { return nil }
                listed = true
                satellites.reserveCapacity(32)
                if skip("]") { continue }
                repeat {
                    guard satellites.count < GPSDReport.maximumSatellites, let satellite = satellite() else {
                        return nil
                    }
                    satellites.append(satellite)
                } while skip(",")
                guard skip("]") else { return nil }
            default:
                return nil
            }
        }
    }

    /// One entry of `satellites`.
    mutating func satellite() -> GPSDReport.Satellite? {
        guard skip("{") else { return nil }
        var satellite = GPSDReport.Satellite()
        var seen: UInt8 = 0
        func first(_ bit: UInt8) -> Bool {
            defer { seen |= bit }
            return seen & bit == 0
        }
        var isFirst = true
        while true {
            guard let member = member(first: isFirst) else { return nil }
            guard case .key(let key) = member else { return isFirst ? nil : satellite }
            isFirst = false
            switch key {
            case .PRN:
                guard first(1 << 0), let value = integer(-32_768...32_767) else { return nil }
                satellite.prn = value
            case .gnssid:
                guard first(1 << 1), let value = integer(0...255) else { return nil }
                satellite.gnssid = value
            case .ss:
                guard first(1 << 2), let value = real() else { return nil }
                satellite.ss = value
            case .used:
                guard first(1 << 3), let value = boolean() else { return nil }
                satellite.used = value
            case .el, .az:
                guard real() != nil else { return nil }
            case .svid, .sigid, .health:
                guard integer(0...255) != nil else { return nil }
            case .freqid:
                guard integer(-128...127) != nil else { return nil }
            default:
                return nil
            }
        }
    }
}
