import FoundationEssentials

/// Why a weather request failed. Descriptions never contain an API key or a request URL.
package enum WeatherError: Error, Hashable, Sendable, CustomStringConvertible {
    /// HTTP 401: the provider does not accept the configured API key (or none was given).
    case badKey(provider: String)
    /// HTTP 429: too many requests; `retryAfter` is the provider's Retry-After header in seconds, when it sent one.
    case rateLimited(provider: String, retryAfter: TimeInterval?, reason: String?)
    /// HTTP 400: the provider refused the request, with its stated reason.
    case badRequest(provider: String, reason: String)
    /// HTTP 5xx.
    case serverError(provider: String, status: Int)
    /// Any other status than 200, 400, 401, 429 or 5xx (a wrong base URL gives 404).
    case unexpectedStatus(provider: String, status: Int, reason: String?)
    /// No answer at all: no network, DNS failure, connection refused or reset.
    case unreachable(provider: String, reason: String)
    /// The provider accepted the connection but did not answer in time.
    case timedOut(provider: String, after: TimeInterval)
    /// A 200 reply that is not the JSON the provider documents.
    case malformedReply(provider: String, reason: String)

    /// "open-meteo" or "openweathermap".
    package var provider: String {
        switch self {
        case .badKey(let provider), .rateLimited(let provider, _, _), .badRequest(let provider, _),
            .serverError(let provider, _), .unexpectedStatus(let provider, _, _), .unreachable(let provider, _),
            .timedOut(let provider, _), .malformedReply(let provider, _):
            provider
        }
    }

    /// Whether the provider could not be reached at all, which the weather explains as "offline since…".
    package var isOffline: Bool {
        switch self {
        case .unreachable, .timedOut: true
        default: false
        }
    }

    /// The least wait before asking again, in seconds, when the failure calls for more than ordinary backoff;
    /// feed it to `WeatherFetchHistory.failed(at:retryAfter:offline:)`.
    package var retryAfter: TimeInterval? {
        switch self {
        case .rateLimited(let provider, let retryAfter, let reason):
            retryAfter ?? Self.rateLimitWait(provider: provider, reason: reason)
        case .badKey:
            // A new OpenWeatherMap key can take up to two hours to activate: try again hourly, not never.
            3600
        default:
            nil
        }
    }

    package var description: String {
        switch self {
        case .badKey(let provider):
            "\(provider) refused the API key (HTTP 401): check it with `chest config weather.key KEY`; "
                + "a new OpenWeatherMap key can take up to 2 hours to activate"
        case .rateLimited(let provider, let retryAfter, let reason):
            "\(provider) rate limit reached (HTTP 429)" + (reason.map { ": \(Self.withoutFinalPeriod($0))" } ?? "")
                + (retryAfter.map { "; retry after \(Int($0)) s" } ?? "")
        case .badRequest(let provider, let reason):
            "\(provider) rejected the request (HTTP 400): \(reason)"
        case .serverError(let provider, let status):
            "\(provider) server error (HTTP \(status))"
        case .unexpectedStatus(let provider, let status, let reason):
            "\(provider) answered HTTP \(status)" + (reason.map { ": \($0)" } ?? "")
                + (status == 404 ? " (check the weather URL: `chest config weather.url`)" : "")
        case .unreachable(let provider, let reason):
            "cannot reach \(provider): \(reason)"
        case .timedOut(let provider, let after):
            "\(provider) did not answer within \(Int(after.rounded(.up))) s"
        case .malformedReply(let provider, let reason):
            "\(provider) sent an unreadable reply: \(reason)"
        }
    }

    /// "…in one minute." becomes "…in one minute", so "; retry after" can follow.
    private static func withoutFinalPeriod(_ text: String) -> String {
        text.hasSuffix(".") ? String(text.dropLast()) : text
    }

    /// Open-Meteo names the window it counted in ("Minutely/Hourly/Daily API request limit exceeded");
    /// OpenWeatherMap asks for 10 minutes after a limit error.
    static func rateLimitWait(provider: String, reason: String?) -> TimeInterval {
        let reason = reason?.lowercased() ?? ""
        if reason.contains("minutely") { return 60 }
        if reason.contains("hourly") || reason.contains("daily") { return 3600 }
        return 600
    }
}
