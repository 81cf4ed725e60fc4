import CCurl
import ChestCore
import FoundationEssentials
import Glibc

/// What goes wrong, in words a log may keep: an HTTP status, a provider's own reason and a transport failure, with
/// the API key scrubbed.
extension WeatherHTTPClient {
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
        if let secret { text = text.replacing(secret, with: "[key]") }
        // Foundation's CharacterSet.controlCharacters: the general categories Cc and Cf.
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format: scalars.append(" ")
            default: scalars.append(scalar)
            }
        }
        text = String(scalars).trimmingSpaces()
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }

    private func errorReason(_ body: Data) -> String? {
        struct ErrorBody: Decodable {
            var reason: String?
            var message: String?
        }
        guard let decoded = try? JSONDecoder().decode(ErrorBody.self, from: body),
            let text = decoded.reason ?? decoded.message
        else { return nil }
        return clean(text)
    }

    // libcurl's messages name the host and sometimes the URL, and with it the key: map codes to our words, as
    // URLSession's did.
    func transportError(_ code: CURLcode, osErrno: Int32, cancelled: Bool) -> WeatherError {
        if cancelled && code == CURLE_ABORTED_BY_CALLBACK {
            return .unreachable(provider: provider, reason: "request cancelled")
        }
        switch (code, osErrno) {
        case (CURLE_OPERATION_TIMEDOUT, _), (CURLE_COULDNT_CONNECT, ETIMEDOUT):
            return .timedOut(provider: provider, after: timeout)
        case (_, ECONNREFUSED):
            return .unreachable(provider: provider, reason: "connection refused")
        case (CURLE_COULDNT_RESOLVE_HOST, _), (CURLE_COULDNT_RESOLVE_PROXY, _):
            return .unreachable(provider: provider, reason: "host not found")
        case (CURLE_COULDNT_CONNECT, ENETUNREACH), (CURLE_COULDNT_CONNECT, ENETDOWN):
            return .unreachable(provider: provider, reason: "no network")
        case (CURLE_RECV_ERROR, _), (CURLE_SEND_ERROR, _), (CURLE_PARTIAL_FILE, _):
            return .unreachable(provider: provider, reason: "connection lost")
        case (CURLE_SSL_CONNECT_ERROR, _), (CURLE_PEER_FAILED_VERIFICATION, _), (CURLE_SSL_CERTPROBLEM, _),
            (CURLE_SSL_CIPHER, _), (CURLE_SSL_CACERT_BADFILE, _), (CURLE_SSL_ISSUER_ERROR, _),
            (CURLE_SSL_PINNEDPUBKEYNOTMATCH, _), (CURLE_SSL_INVALIDCERTSTATUS, _), (CURLE_USE_SSL_FAILED, _):
            return .unreachable(provider: provider, reason: "TLS connection failed")
        case (CURLE_GOT_NOTHING, _), (CURLE_WEIRD_SERVER_REPLY, _), (CURLE_BAD_CONTENT_ENCODING, _):
            return .malformedReply(provider: provider, reason: "not a valid HTTP response")
        default:
            return .unreachable(provider: provider, reason: "network error (curl \(code.rawValue))")
        }
    }
}
