import FoundationEssentials

/// The reader's recent track as chestd keeps it for `chest map` and `chest export`: one point per receiver epoch
/// with a fix, the last `window` seconds, at most `capacity` points (README "The chest directory").
package struct TrackLog: Hashable, Sendable {
    package struct Point: Hashable, Sendable {
        package var time: Date
        package var coordinate: Coordinate
        package var altitudeMSL: Double?

        package init(time: Date, coordinate: Coordinate, altitudeMSL: Double? = nil) {
            self.time = time
            self.coordinate = coordinate
            self.altitudeMSL = altitudeMSL
        }

        /// `TIME LAT LON [ALT]`, one line of the file.
        package var line: String {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(64)
            appendLine(to: &bytes)
            return String(decoding: bytes.dropLast(), as: UTF8.self)
        }

        /// Appends `line` and a newline, built without intermediate strings: chestd appends one a fix.
        package func appendLine(to bytes: inout [UInt8]) {
            ISO8601.append(time, to: &bytes)
            Self.appendDecimal(coordinate.latitude, 7, to: &bytes)
            Self.appendDecimal(coordinate.longitude, 7, to: &bytes)
            if let altitudeMSL { Self.appendDecimal(altitudeMSL, 1, to: &bytes) }
            bytes.append(UInt8(ascii: "\n"))
        }

        /// A space, then `value` as printf's `%.Nf` writes it (N = `decimals`, 1 or 7): the exact binary value
        /// rounded to N decimals, a tie to the even digit, as glibc's printf rounds. Written by integer arithmetic
        /// for any finite value under 2^52, which is every coordinate and altitude; glibc's `strfromd` (its
        /// multi-precision printf, a twentieth of chestd's CPU a fix) only for anything else.
        /// `String(format:)` is out of the question: it looks up each argument's conformance at run time
        /// (docs/BENCHMARKS.md "The fix path's CPU").
        static func appendDecimal(_ value: Double, _ decimals: Int, to bytes: inout [UInt8]) {
            bytes.append(UInt8(ascii: " "))
            let magnitude = value.magnitude
            guard magnitude.isNormal || magnitude == 0, magnitude < 0x1p52 else {
                return appendByPrintf(value, decimals, to: &bytes)
            }
            if value.sign == .minus { bytes.append(UInt8(ascii: "-")) }
            // magnitude = significand × 2^-shift exactly, so magnitude × 10^N = significand × 10^N / 2^shift: the
            // quotient and remainder of a 128-bit division by a power of two (significand < 2^53, 10^7 < 2^24).
            var scaled: UInt128 = 0
            if magnitude != 0 {
                let significand = UInt128(magnitude.significandBitPattern | 1 << 52)
                let shift = 52 - Int(magnitude.exponent)  // at least 1 below 2^52
                let product = significand * UInt128(decimals == 7 ? 10_000_000 : 10)
                if shift < 100 {
                    let quotient = product >> shift
                    let remainder = product & (UInt128(1) << shift - 1)
                    let half = UInt128(1) << (shift - 1)
                    scaled = remainder > half || (remainder == half && quotient & 1 == 1) ? quotient + 1 : quotient
                }
                // Otherwise magnitude × 10^N is under 2^77 / 2^100: it rounds to 0.
            }
            var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // at most 23 digits: under 2^52 × 10^7 < 10^23
            withUnsafeMutableBytes(of: &digits) { buffer in
                var count = 0
                var rest = scaled
                repeat {
                    buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                    count += 1
                } while rest != 0 || count <= decimals
                for index in stride(from: count - 1, through: 0, by: -1) {
                    if index == decimals - 1 { bytes.append(UInt8(ascii: ".")) }
                    bytes.append(buffer[index])
                }
            }
        }

        /// `value` by glibc's `strfromd`, which takes one double and no variadic arguments.
        private static func appendByPrintf(_ value: Double, _ decimals: Int, to bytes: inout [UInt8]) {
            let format: StaticString = decimals == 7 ? "%.7f" : "%.1f"
            // The longest %f of a Double: 309 integer digits, a sign, a point and the decimals.
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: 400) { buffer in
                let written = Int(
                    format.withUTF8Buffer { format in
                        format.withMemoryRebound(to: CChar.self) {
                            strfromd(buffer.baseAddress, buffer.count, $0.baseAddress!, value)
                        }
                    })
                buffer.withMemoryRebound(to: UInt8.self) { bytes += $0.prefix(min(max(written, 0), buffer.count - 1)) }
            }
        }

        package init?(line: Substring) {
            let words = line.split(separator: " ")
            guard words.count >= 3, let time = ISO8601.parse(String(words[0])), let latitude = Double(words[1]),
                let longitude = Double(words[2])
            else { return nil }
            let coordinate = Coordinate(latitude: latitude, longitude: longitude)
            guard coordinate.isValid else { return nil }
            self.init(time: time, coordinate: coordinate, altitudeMSL: words.count > 3 ? Double(words[3]) : nil)
        }
    }

    package private(set) var points: [Point] = []
    /// Seconds of track kept.
    package var window: Double
    package var capacity: Int

    /// Six hours at one fix a second.
    package init(window: Double = 6 * 3600, capacity: Int = 21_600) {
        self.window = window
        self.capacity = capacity
    }

    /// Reads the file's lines; a damaged line (a crash mid-append) is skipped.
    package init(text: String, window: Double = 6 * 3600, capacity: Int = 21_600) {
        self.init(window: window, capacity: capacity)
        for line in text.split(separator: "\n") {
            if let point = Point(line: line) { points.append(point) }
        }
        trim()
    }

    /// Takes a fix's point when it is a new epoch with a position; the point appended, if any.
    package mutating func record(_ fix: Fix) -> Point? {
        guard let position = fix.position, let time = fix.time else { return nil }
        if let last = points.last, time <= last.time { return nil }
        let point = Point(time: time, coordinate: position, altitudeMSL: fix.altitude3D)
        points.append(point)
        trim()
        return point
    }

    /// Whether a file holding `lines` lines should be rewritten with `points` only.
    package func needsCompaction(fileLines: Int) -> Bool {
        fileLines > capacity + capacity / 4 || fileLines > points.count * 2 + 100
    }

    /// The whole file's text.
    package var text: String { points.map { $0.line + "\n" }.joined() }

    private mutating func trim() {
        guard let last = points.last else { return }
        let oldest = points.firstIndex { last.time.timeIntervalSince($0.time) <= window } ?? points.count
        let drop = points.count - oldest > capacity ? points.count - capacity : oldest
        if drop > 0 { points.removeFirst(drop) }
    }
}

/// glibc's `strfromd(3)` (C23), which Swift's Glibc module does not import: a double formatted by printf's own
/// code, without printf's variadic arguments.
@_silgen_name("strfromd")
private func strfromd(
    _ buffer: UnsafeMutablePointer<CChar>?, _ size: Int, _ format: UnsafePointer<CChar>,
    _ value: Double
) -> Int32
