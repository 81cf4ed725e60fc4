import ChestCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The HTTP side shared by the weather providers: one GET with a timeout, statuses turned into `WeatherError`,
/// and a secret (the API key) scrubbed from every text that could reach a log.
final class WeatherHTTPClient: Sendable {
    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: Data

        /// A header by case-insensitive name.
        func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }

    let provider: String
    let timeout: TimeInterval
    private let secret: String?
    private let session: URLSession

    init(provider: String, timeout: TimeInterval, secret: String?) {
        self.provider = provider
        self.timeout = timeout
        self.secret = secret.flatMap { $0.isEmpty ? nil : $0 }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout * 2
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        session = URLSession(configuration: configuration)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// GETs `url`. Throws only for transport failures; any HTTP status comes back as a reply.
    func get(_ url: URL) async throws(WeatherError) -> Reply {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            throw .unreachable(provider: provider, reason: "the weather URL is not an http or https URL")
        }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "GET"
        // Identifies the application only, never the user (privacy, docs/DESIGN.md "Reliability and security").
        request.setValue("chestd", forHTTPHeaderField: "User-Agent")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let data: Data, response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw transportError(error)
        }
        guard let http = response as? HTTPURLResponse else {
            throw .malformedReply(provider: provider, reason: "not an HTTP response")
        }
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key] = value }
        }
        return Reply(status: http.statusCode, headers: headers, body: data)
    }

    /// The error for a non-200 reply, with the provider's own reason (Open-Meteo's `reason`, OpenWeatherMap's
    /// `message`) when the body carries one.
    func statusError(_ reply: Reply, now: Date) -> WeatherError {
        let reason = errorReason(reply.body)
        switch reply.status {
        case 401:
            return .badKey(provider: provider)
        case 429:
            let retryAfter = reply.header("Retry-After").flatMap { Self.parseRetryAfter($0, now: now) }
            return .rateLimited(provider: provider, retryAfter: retryAfter, reason: reason)
        case 400:
            return .badRequest(provider: provider, reason: reason ?? "no reason given")
        case 500...599:
            return .serverError(provider: provider, status: reply.status)
        default:
            return .unexpectedStatus(provider: provider, status: reply.status, reason: reason)
        }
    }

    /// Makes provider-supplied text safe for a log line: no key, no control characters, at most 200 characters.
    func clean(_ text: String) -> String {
        var text = text
        if let secret { text = text.replacingOccurrences(of: secret, with: "[key]") }
        text = String(text.unicodeScalars.map { CharacterSet.controlCharacters.contains($0) ? " " : Character($0) })
            .trimmingCharacters(in: .whitespaces)
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }

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
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~,")
        components.percentEncodedQuery = query.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }.joined(separator: "&")
        return components.url
    }

    /// Retry-After is either delta-seconds or an HTTP-date (RFC 9110 §10.2.3).
    static func parseRetryAfter(_ value: String, now: Date) -> TimeInterval? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed), seconds >= 0 { return TimeInterval(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: trimmed) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    /// A DecodingError's gist without Foundation's long debug text.
    /// Decodes a provider's 200 body, or says it is not the documented JSON.
    /// A reply's observation time in unix seconds, refused unless within 1970…9999: a server's
    /// `"time": 2222222221800000000` made a date that the observation's RFC 3339 encoding cannot write (it trapped
    /// converting the milliseconds to Int64; found by the weather fuzzer, docs/RELIABILITY.md "Fuzzing").
    static func observationTime(_ seconds: Double, provider: String) throws(WeatherError) -> Date {
        guard (0...253_402_300_799).contains(seconds) else {
            throw .malformedReply(provider: provider, reason: "observation time \(seconds) is not a date between 1970 and 9999")
        }
        return Date(timeIntervalSince1970: seconds)
    }

    static func decode<Reply: Decodable>(_ type: Reply.Type, from body: Data,
                                         provider: String) throws(WeatherError) -> Reply {
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

    private func errorReason(_ body: Data) -> String? {
        struct ErrorBody: Decodable {
            var reason: String?
            var message: String?
        }
        guard let decoded = try? JSONDecoder().decode(ErrorBody.self, from: body),
              let text = decoded.reason ?? decoded.message else { return nil }
        return clean(text)
    }

    // URLError's own description and userInfo carry the request URL, and with it the key: map codes to our words.
    private func transportError(_ error: any Error) -> WeatherError {
        guard let error = error as? URLError else {
            return .unreachable(provider: provider, reason: "network error")
        }
        switch error.code {
        case .timedOut: return .timedOut(provider: provider, after: timeout)
        case .cannotConnectToHost: return .unreachable(provider: provider, reason: "connection refused")
        case .cannotFindHost, .dnsLookupFailed: return .unreachable(provider: provider, reason: "host not found")
        case .notConnectedToInternet: return .unreachable(provider: provider, reason: "no network")
        case .networkConnectionLost: return .unreachable(provider: provider, reason: "connection lost")
        case .cancelled: return .unreachable(provider: provider, reason: "request cancelled")
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            return .unreachable(provider: provider, reason: "TLS connection failed")
        case .badServerResponse, .cannotParseResponse:
            return .malformedReply(provider: provider, reason: "not a valid HTTP response")
        default: return .unreachable(provider: provider, reason: "network error \(error.code.rawValue)")
        }
    }
}
