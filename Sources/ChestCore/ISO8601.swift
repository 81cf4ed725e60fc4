import Foundation

/// ISO 8601 instants, as message files and `compose` write them.
public enum ISO8601 {
    /// Reads "2026-12-24T18:00:00+01:00", "2026-12-24T17:00:00Z", with or without fractional seconds.
    /// Without a zone ("2026-12-24T18:00", "2026-12-24 18:00:00"), the time is read in `localZone` when one is
    /// given, and refused otherwise: a message file always names its zone.
    public static func parse(_ text: String, localZone: TimeZone? = nil) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: " ", with: "T")
        // The format style reads fractional seconds and any offset; it is a value, fast, and safe on any thread.
        if let date = try? Date.ISO8601FormatStyle().parse(trimmed) { return date }
        guard let localZone else { return nil }
        let local = DateFormatter()
        local.locale = Locale(identifier: "en_US_POSIX")
        local.timeZone = localZone
        for pattern in ["yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd"] {
            local.dateFormat = pattern
            if let date = local.date(from: trimmed) { return date }
        }
        return nil
    }

    /// "2026-12-24T17:00:00Z", or "2026-12-24T17:00:00.250Z" when the instant has a fraction of a second: UTC,
    /// rounded to the millisecond. Canonical: a string this writes reads back to an instant that writes the same
    /// string, which the seal over a message's bytes depends on.
    public static func string(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (seconds, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        let whole = fraction < 0 ? (seconds - 1, fraction + 1000) : (seconds, fraction)
        let text = Date.ISO8601FormatStyle().format(Date(timeIntervalSince1970: Double(whole.0)))
        guard whole.1 != 0 else { return text }
        let digits = String(whole.1 + 1000).dropFirst()
        return text.dropLast() + "." + digits + "Z"
    }
}
