import ChestCore
import FoundationEssentials

/// The texts of a request and a reply: query values and URLs, HTTP dates, observation times, JSON bodies.
extension WeatherHTTPClient {
    /// The query value for a coordinate rounded to 0.01°: "48.86", "-0.05", "2.30". Formatted with integers so the
    /// locale cannot change the decimal separator and no more digits than two can leave the machine.
    static func twoDecimals(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let sign = hundredths < 0 ? "-" : ""
        let magnitude = abs(hundredths)
        let fraction = magnitude % 100
        return "\(sign)\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// `base` with `path` appended to whatever path it already has, and `query` as its query string.
    static func url(base: URL, path: String, query: [(String, String)]) -> URL? {
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: false) else { return nil }
        var basePath = components.path
        while basePath.hasSuffix("/") { basePath.removeLast() }
        components.path = basePath + path
        components.percentEncodedQuery = query.map { name, value in "\(name)=\(percentEncoded(value))" }
            .joined(separator: "&")
        return components.url
    }

    /// `value`'s UTF-8 with every byte but ASCII letters, digits and "-._~," percent-encoded ("%2F").
    static func percentEncoded(_ value: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: ","):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Retry-After is either delta-seconds or an HTTP-date (RFC 9110 §10.2.3).
    static func parseRetryAfter(_ value: String, now: Date) -> TimeInterval? {
        let trimmed = value.trimmingSpaces()
        if let seconds = Int(trimmed), seconds >= 0 { return TimeInterval(seconds) }
        guard let date = httpDate(trimmed) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    /// An IMF-fixdate (RFC 9110 §5.6.7), "Sun, 06 Nov 1994 08:49:37 GMT", read by arithmetic; nil for anything
    /// else or an impossible date. The weekday's name is checked for its spelling, not against the date.
    static func httpDate(_ text: String) -> Date? {
        let weekdays: Set<Substring> = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let fields = text.split(separator: " ")
        func digits(_ field: Substring) -> Bool { field.utf8.allSatisfy { (0x30...0x39).contains($0) } }
        guard fields.count == 6, fields[0].count == 4, fields[0].hasSuffix(","),
            weekdays.contains(fields[0].dropLast()),
            (1...2).contains(fields[1].count), digits(fields[1]), let day = Int(fields[1]),
            let month = months.firstIndex(where: { $0 == fields[2] }),
            fields[3].count == 4, digits(fields[3]),
            fields[4].count == 8, fields[5] == "GMT" || fields[5] == "UTC"
        else { return nil }
        // ISO8601.parse checks the ranges (month length, leap years, hours, minutes, seconds).
        let iso = "\(fields[3])-\(month < 9 ? "0" : "")\(month + 1)-\(day < 10 ? "0" : "")\(day)T\(fields[4])Z"
        return ISO8601.parse(iso)
    }

    /// A DecodingError's gist without Foundation's long debug text.
    /// Decodes a provider's 200 body, or says it is not the documented JSON.
    /// A reply's observation time in unix seconds, refused unless within 1970…9999: a server's
    /// `"time": 2222222221800000000` made a date that the observation's RFC 3339 encoding cannot write (it trapped
    /// converting the milliseconds to Int64; found by the weather fuzzer, docs/RELIABILITY.md "Fuzzing").
    static func observationTime(_ seconds: Double, provider: String) throws(WeatherError) -> Date {
        guard (0...253_402_300_799).contains(seconds) else {
            throw .malformedReply(
                provider: provider, reason: "observation time \(seconds) is not a date between 1970 and 9999")
        }
        return Date(timeIntervalSince1970: seconds)
    }

    static func decode<Reply: Decodable>(
        _ type: Reply.Type, from body: Data,
        provider: String
    ) throws(WeatherError) -> Reply {
        do {
            return try JSONDecoder().decode(Reply.self, from: body)
        } catch {
            throw .malformedReply(provider: provider, reason: "not the documented JSON (\(decodingProblem(error)))")
        }
    }

    static func decodingProblem(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "missing \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "wrong type at \"\(context.codingPath.map(\.stringValue).joined(separator: "."))\""
        case DecodingError.dataCorrupted: "not JSON"
        default: "cannot decode"
        }
    }
}
