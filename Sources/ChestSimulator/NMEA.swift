/// NMEA 0183 sentence formatting: checksums and the fixed-point fields GPS receivers write.
package enum NMEA {
    /// The XOR of every byte of `body`, the text between `$` and `*`.
    package static func checksum(_ body: some StringProtocol) -> UInt8 {
        body.utf8.reduce(0, ^)
    }

    /// `$BODY*HH`, with the checksum as two upper-case hex digits and no line ending.
    package static func sentence(_ body: String) -> String {
        "$\(body)*\(hex2(checksum(body)))"
    }

    /// Whether `line` (with or without a trailing CR LF) is `$…*HH` with a matching checksum.
    package static func isValid(_ line: some StringProtocol) -> Bool {
        var trimmed = Substring(line)
        while trimmed.last?.isNewline == true { trimmed.removeLast() }
        guard trimmed.first == "$", let star = trimmed.lastIndex(of: "*") else { return false }
        let body = trimmed[trimmed.index(after: trimmed.startIndex)..<star]
        let digits = trimmed[trimmed.index(after: star)...]
        guard digits.count == 2, let value = UInt8(digits, radix: 16) else { return false }
        return value == checksum(body)
    }

    /// Latitude as `ddmm.mmmmm` and its hemisphere, N or S.
    package static func latitude(_ degrees: Double) -> (String, String) {
        (degreesMinutes(abs(degrees), degreeDigits: 2), degrees < 0 ? "S" : "N")
    }

    /// Longitude as `dddmm.mmmmm` and its hemisphere, E or W.
    package static func longitude(_ degrees: Double) -> (String, String) {
        (degreesMinutes(abs(degrees), degreeDigits: 3), degrees < 0 ? "W" : "E")
    }

    /// `value` rounded to `places` decimals, without exponent notation: `fixed(2.5, places: 1)` is "2.5".
    package static func fixed(_ value: Double, places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = Int64((abs(value) * scale).rounded())
        let sign = value < 0 && scaled != 0 ? "-" : ""
        guard places > 0 else { return "\(sign)\(scaled)" }
        let whole = scaled / Int64(scale)
        let fraction = String(scaled % Int64(scale))
        return "\(sign)\(whole).\(String(repeating: "0", count: places - fraction.count))\(fraction)"
    }

    /// `value` left-padded with zeros to `width` digits.
    package static func padded(_ value: Int, width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func degreesMinutes(_ degrees: Double, degreeDigits: Int) -> String {
        // Whole hundred-thousandths of a minute (about 2 cm), so rounding never yields "60.00000" minutes.
        let total = Int64((degrees * 60 * 100_000).rounded())
        let wholeDegrees = Int(total / 6_000_000)
        let minutes = total % 6_000_000
        return padded(wholeDegrees, width: degreeDigits) + padded(Int(minutes / 100_000), width: 2) + "."
            + padded(Int(minutes % 100_000), width: 5)
    }

    private static func hex2(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }
}
