/// The strict reader behind `GPSDReport.parse`: a cursor over the bytes of one line. Every method returns `nil`
/// for what gpsd 3.22 does not write, and the caller then gives the whole line to libgps.
struct GPSDReportReader {
    let base: UnsafePointer<UInt8>
    let end: Int
    var index = 0

    init(base: UnsafePointer<UInt8>, end: Int) {
        self.base = base
        self.end = end
    }

    /// The keys of TPV, SKY and satellite members that the reader knows, each as the little-endian packing of its
    /// first eight bytes (the rest in `tail`), so that a key is found by one integer switch.
    enum Key: UInt64, CaseIterable {
        case mode = 0x65646f6d, status = 0x737574617473, lat = 0x74616c, lon = 0x6e6f6c
        case altHAE = 0x454148746c61, altMSL = 0x4c534d746c61, geoidSep = 0x70655364696f6567
        case eph = 0x687065, epv = 0x767065, time = 0x656d6974, device = 0x656369766564
        case leapseconds = 0x6f6365737061656c, dgpsSta = 0x61745373706764, baseS = 0x5365736162
        case datum = 0x6d75746164, ept = 0x747065, alt = 0x746c61, epc = 0x637065, epd = 0x647065
        case eps = 0x737065, epx = 0x787065, epy = 0x797065, track = 0x6b63617274, magtrack = 0x6b6361727467616d
        case magvar = 0x72617667616d, speed = 0x6465657073, climb = 0x626d696c63
        case ecefx = 0x7866656365, ecefy = 0x7966656365, ecefz = 0x7a66656365
        case ecefvx = 0x787666656365, ecefvy = 0x797666656365, ecefvz = 0x7a7666656365
        case ecefpAcc = 0x6363417066656365, ecefvAcc = 0x6363417666656365, sep = 0x706573
        case relN = 0x4e6c6572, relE = 0x456c6572, relD = 0x446c6572, relH = 0x486c6572, relL = 0x4c6c6572
        case velN = 0x4e6c6576, velE = 0x456c6576, velD = 0x446c6576, depth = 0x6874706564
        case dgpsAge = 0x65674173706764, dgpsRatio = 0x6974615273706764
        case wanglem = 0x6d656c676e6177, wangler = 0x72656c676e6177, wanglet = 0x74656c676e6177
        case wspeedr = 0x72646565707377, wspeedt = 0x74646565707377
        case baseE = 0x4565736162, baseN = 0x4e65736162, baseU = 0x5565736162, baseL = 0x4c65736162
        case baseC = 0x4365736162
        case hdop = 0x706f6468, xdop = 0x706f6478, ydop = 0x706f6479, vdop = 0x706f6476, tdop = 0x706f6474
        case pdop = 0x706f6470, gdop = 0x706f6467, nSat = 0x7461536e, uSat = 0x74615375
        case satellites = 0x74696c6c65746173
        case PRN = 0x4e5250, el = 0x6c65, az = 0x7a61, ss = 0x7373, used = 0x64657375, gnssid = 0x646973736e67
        case svid = 0x64697673, sigid = 0x6469676973, freqid = 0x646971657266, health = 0x68746c616568

        /// Bytes 9 to 16 of the key, packed the same way.
        var tail: UInt64 {
            switch self {
            case .leapseconds: 0x73646e
            case .dgpsRatio: 0x6f
            case .satellites: 0x7365
            default: 0
            }
        }
    }

    /// What follows a value inside an object.
    enum Member {
        case key(Key)
        case end
    }

    /// Skips `text` if the line continues with it.
    mutating func skip(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard end - index >= count else { return false }
        let start = text.utf8Start
        for offset in 0..<count where base[index + offset] != start[offset] { return false }
        index += count
        return true
    }

    /// The next member's key (after a `,` unless `first`), or `.end` after the object's `}`.
    mutating func member(first: Bool = false) -> Member? {
        guard index < end else { return nil }
        if base[index] == UInt8(ascii: "}") {
            index += 1
            return .end
        }
        if !first {
            guard base[index] == UInt8(ascii: ",") else { return nil }
            index += 1
        }
        guard index < end, base[index] == UInt8(ascii: "\"") else { return nil }
        var i = index + 1
        var head: UInt64 = 0
        var tail: UInt64 = 0
        while i < end, base[i] != UInt8(ascii: "\"") {
            let byte = base[i]
            let length = i - index - 1
            guard length < 16, byte < 0x80, byte > 0x20 else { return nil }
            if length < 8 { head |= UInt64(byte) << (8 * length) } else { tail |= UInt64(byte) << (8 * (length - 8)) }
            i += 1
        }
        guard i + 1 < end, base[i + 1] == UInt8(ascii: ":"), let key = Key(rawValue: head), key.tail == tail
        else { return nil }
        index = i + 2
        return .key(key)
    }

    /// A string of at most 63 printable ASCII characters without escapes.
    mutating func string() -> Range<Int>? {
        guard index < end, base[index] == UInt8(ascii: "\"") else { return nil }
        let start = index + 1
        var i = start
        while i < end, base[i] != UInt8(ascii: "\"") {
            let byte = base[i]
            guard byte >= 0x20, byte < 0x7f, byte != UInt8(ascii: "\\"), i - start < 63 else { return nil }
            i += 1
        }
        guard i < end else { return nil }
        index = i + 1
        return start..<i
    }

    mutating func boolean() -> Bool? {
        if skip("true") { return true }
        if skip("false") { return false }
        return nil
    }

    /// A JSON integer of at most nine digits, in `range`.
    mutating func integer(_ range: ClosedRange<Int> = -999_999_999...999_999_999) -> Int? {
        var i = index
        let negative = i < end && base[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        let start = i
        var value = 0
        while i < end, let digit = GPSDReportReader.digit(base[i]) {
            guard i - start < 9 else { return nil }
            value = value * 10 + digit
            i += 1
        }
        let digits = i - start
        guard digits > 0, digits == 1 || base[start] != UInt8(ascii: "0") else { return nil }
        // A fraction or an exponent would be cut off by libgps's integer conversion, not rejected.
        if i < end, base[i] == UInt8(ascii: ".") || base[i] | 0x20 == UInt8(ascii: "e") { return nil }
        if negative { value = -value }
        guard range.contains(value) else { return nil }
        index = i
        return value
    }

    /// A JSON number with at most 15 digits and a decimal exponent, after the fraction, of at most 22 either way.
    ///
    /// Such a number is an integer below 2^53 times or divided by an exact power of ten, one correctly rounded
    /// operation: the value libgps's own conversion gives (docs/DESIGN.md "The fast path for TPV and SKY").
    mutating func real() -> Double? {
        var i = index
        let negative = i < end && base[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var scale = 0
        let start = i
        while i < end, let digit = GPSDReportReader.digit(base[i]) {
            mantissa = mantissa * 10 + UInt64(digit)
            digits += 1
            i += 1
            guard digits <= 15 else { return nil }
        }
        guard digits > 0, digits == 1 || base[start] != UInt8(ascii: "0") else { return nil }
        if i < end, base[i] == UInt8(ascii: ".") {
            i += 1
            let fraction = i
            while i < end, let digit = GPSDReportReader.digit(base[i]) {
                mantissa = mantissa * 10 + UInt64(digit)
                digits += 1
                scale -= 1
                i += 1
                guard digits <= 15 else { return nil }
            }
            guard i > fraction else { return nil }
        }
        if i < end, base[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            var exponentNegative = false
            if i < end, base[i] == UInt8(ascii: "-") || base[i] == UInt8(ascii: "+") {
                exponentNegative = base[i] == UInt8(ascii: "-")
                i += 1
            }
            let exponentStart = i
            var exponent = 0
            while i < end, let digit = GPSDReportReader.digit(base[i]) {
                exponent = exponent * 10 + digit
                i += 1
                guard i - exponentStart <= 3 else { return nil }
            }
            guard i > exponentStart else { return nil }
            scale += exponentNegative ? -exponent : exponent
        }
        guard scale >= -22, scale <= 22 else { return nil }
        var value = Double(mantissa)
        if scale < 0 {
            value /= GPSDReportReader.powersOfTen[-scale]
        } else if scale > 0 {
            value *= GPSDReportReader.powersOfTen[scale]
        }
        index = i
        return negative ? -value : value
    }

    /// A time as gpsd writes it, `YYYY-MM-DDTHH:MM:SS[.f]Z` with up to nine fractional digits, as libgps turns
    /// it into seconds and nanoseconds: the fraction read as a double and its product with 10^9 truncated.
    mutating func time() -> (seconds: Int, nanoseconds: Int)? {
        let saved = index
        guard let range = string() else { return nil }
        let text = UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)
        func number(_ at: Int, _ count: Int) -> Int? {
            var value = 0
            for offset in at..<at + count {
                guard let digit = GPSDReportReader.digit(text[offset]) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        func at(_ offset: Int, _ character: Unicode.Scalar) -> Bool { text[offset] == UInt8(ascii: character) }
        guard text.count >= 20, text.count <= 30, at(4, "-"), at(7, "-"), at(10, "T"), at(13, ":"), at(16, ":"),
            at(text.count - 1, "Z"),
            let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
            (1970...2099).contains(year), (1...12).contains(month), hour < 24, minute < 60, second < 60,
            day >= 1, day <= GPSDReportReader.daysIn(month: month, year: year)
        else {
            index = saved
            return nil
        }
        var nanoseconds = 0
        if text.count > 20 {
            let digits = text.count - 21
            guard at(19, "."), digits >= 1, let fraction = number(20, digits) else {
                index = saved
                return nil
            }
            nanoseconds = Int(Double(fraction) / GPSDReportReader.powersOfTen[digits] * 1e9)
        }
        // Days since 1970 of a proleptic Gregorian date.
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let days = era * 146_097 + yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear - 719_468
        return (days * 86_400 + hour * 3_600 + minute * 60 + second, nanoseconds)
    }

    var atEnd: Bool { index == end }

    static func digit(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// 10^0 to 10^22, each exact in a double.
    static let powersOfTen: [Double] = [
        1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13,
        1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]
}
