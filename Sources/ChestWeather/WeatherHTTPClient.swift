import CCurl
import ChestCore
import ChestIO
import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

/// The HTTP side shared by the weather providers: one GET with a timeout, statuses turned into `WeatherError`,
/// and a secret (the API key) scrubbed from every text that could reach a log.
///
/// The request goes through libcurl's easy interface on a Dispatch thread (its `curl_easy_perform` blocks), so this
/// module needs neither FoundationNetworking nor, through it, ICU.
///
/// What a server can make it hold is bounded (docs/WEATHER.md "What a reply may be"): at most `replyLimit` bytes,
/// headers and the decoded body together, and a redirect is followed only to https.
final class WeatherHTTPClient: Sendable {
    struct Reply: Sendable {
        var status: Int
        var headers: [String: String]
        var body: Data

        /// A header by case-insensitive name.
        func header(_ name: String) -> String? {
            let name = name.lowercased()
            return headers.first { $0.key.lowercased() == name }?.value
        }
    }

    let provider: String
    let timeout: TimeInterval
    private let secret: String?

    /// The most a reply may bring, headers and body once decoded (a provider's is about 300 bytes and 1 kB of
    /// headers): a 1 MB gzip reply once decoded to 2.1 GB in the helper (issue 61).
    static let replyLimit = 256 * 1024

    init(provider: String, timeout: TimeInterval, secret: String?) {
        self.provider = provider
        self.timeout = timeout
        self.secret = secret.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// GETs `url`. Throws only for transport failures; any HTTP status comes back as a reply.
    func get(_ url: URL) async throws(WeatherError) -> Reply {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            throw .unreachable(provider: provider, reason: "the weather URL is not an http or https URL")
        }
        let cancelled = CancelFlag()
        let outcome: Result<Reply, WeatherError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async { continuation.resume(returning: self.perform(url, cancelled: cancelled)) }
            }
        } onCancel: {
            cancelled.set()
        }
        return try outcome.get()
    }

    /// One blocking GET through a libcurl easy handle.
    private func perform(_ url: URL, cancelled: CancelFlag) -> Result<Reply, WeatherError> {
        let started: Bool
        do { started = try Self.curlReady.get() } catch {
            return .failure(.unreachable(provider: provider, reason: error.description))
        }
        guard started, let handle = curl_easy_init() else {
            return .failure(.unreachable(provider: provider, reason: "network error (libcurl did not start)"))
        }
        defer { curl_easy_cleanup(handle) }
        var requestHeaders: UnsafeMutablePointer<curl_slist>?
        requestHeaders = curl_slist_append(requestHeaders, "Accept: application/json")
        defer { curl_slist_free_all(requestHeaders) }
        let transfer = Transfer(cancelled: cancelled)
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        let milliseconds = Int(min(timeout, 86_400) * 1000)

        // libcurl copies every string option, so the temporary C strings may go after each call.
        var ok = chest_curl_setopt_string(handle, CURLOPT_URL, url.absoluteString) == CURLE_OK
        func set(_ option: CURLoption, _ value: Int) {
            ok = ok && chest_curl_setopt_long(handle, option, value) == CURLE_OK
        }
        func set(_ option: CURLoption, _ value: String) {
            ok = ok && chest_curl_setopt_string(handle, option, value) == CURLE_OK
        }
        set(CURLOPT_PROTOCOLS_STR, "http,https")
        // A redirect to plain http would send the key and the position in clear, and let whoever is on the path
        // answer: never followed, even from a base URL that is itself plain http (docs/WEATHER.md).
        set(CURLOPT_REDIR_PROTOCOLS_STR, "https")
        set(CURLOPT_HTTPGET, 1)
        set(CURLOPT_FOLLOWLOCATION, 1)
        set(CURLOPT_MAXREDIRS, 16)
        // A length announced past the limit is refused before the body is read; one not announced (chunked, or
        // compressed to far less) is counted as it is decoded, in the callbacks below.
        set(CURLOPT_MAXFILESIZE, Self.replyLimit)
        // Identifies the application only, never the user (privacy, docs/DESIGN.md "Reliability and security").
        set(CURLOPT_USERAGENT, "chestd")
        ok = ok && chest_curl_setopt_list(handle, CURLOPT_HTTPHEADER, requestHeaders) == CURLE_OK
        // Every encoding this libcurl can decode (gzip, deflate…), decoded before the body reaches us.
        set(CURLOPT_ACCEPT_ENCODING, "")
        set(CURLOPT_SSL_VERIFYPEER, 1)
        set(CURLOPT_SSL_VERIFYHOST, 2)
        // No signals from a thread: timeouts and name resolution must not touch the process's SIGALRM.
        set(CURLOPT_NOSIGNAL, 1)
        // As URLSession's timeouts were: `timeout` to connect and between any two pieces of the answer (at least
        // one byte a second, counted in whole seconds), twice `timeout` for the whole request.
        set(CURLOPT_CONNECTTIMEOUT_MS, max(1, milliseconds))
        set(CURLOPT_LOW_SPEED_LIMIT, 1)
        set(CURLOPT_LOW_SPEED_TIME, max(1, Int(min(timeout, 86_400).rounded(.up))))
        set(CURLOPT_TIMEOUT_MS, max(1, 2 * milliseconds))
        ok =
            ok
            && chest_curl_setopt_data_function(handle, CURLOPT_WRITEFUNCTION) { data, size, count, context in
                guard let data, let context else { return 0 }
                let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
                let length = size * count
                // Anything but `length` makes libcurl stop the transfer (CURLE_WRITE_ERROR).
                guard transfer.take(length) else { return 0 }
                data.withMemoryRebound(to: UInt8.self, capacity: length) {
                    transfer.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: length))
                }
                return length
            } == CURLE_OK
        ok = ok && chest_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context) == CURLE_OK
        ok =
            ok
            && chest_curl_setopt_data_function(handle, CURLOPT_HEADERFUNCTION) { data, size, count, context in
                guard let data, let context else { return 0 }
                let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
                let length = size * count
                guard transfer.take(length) else { return 0 }
                data.withMemoryRebound(to: UInt8.self, capacity: length) {
                    transfer.headerLine(UnsafeBufferPointer(start: $0, count: length))
                }
                return length
            } == CURLE_OK
        ok = ok && chest_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context) == CURLE_OK
        // Called about once a second and at every piece of data: stops the transfer once the task is cancelled.
        set(CURLOPT_NOPROGRESS, 0)
        ok =
            ok
            && chest_curl_setopt_xferinfo_function(handle, CURLOPT_XFERINFOFUNCTION) { context, _, _, _, _ in
                guard let context else { return 0 }
                return Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue().cancelled.isSet ? 1 : 0
            } == CURLE_OK
        ok = ok && chest_curl_setopt_pointer(handle, CURLOPT_XFERINFODATA, context) == CURLE_OK
        guard ok else {
            return .failure(.unreachable(provider: provider, reason: "network error (libcurl refused an option)"))
        }

        let code = withExtendedLifetime(transfer) { curl_easy_perform(handle) }
        guard code == CURLE_OK else {
            if transfer.tooLarge || code == CURLE_FILESIZE_EXCEEDED {
                return .failure(
                    .malformedReply(
                        provider: provider,
                        reason: "it is larger than \(Self.replyLimit / 1024) kB (a reply is under 1 kB); not read"))
            }
            if code == CURLE_UNSUPPORTED_PROTOCOL {
                // The URL was http or https (checked in `get`): only a redirect can have led elsewhere.
                return .failure(
                    .malformedReply(
                        provider: provider, reason: "it redirects to an address that is not https; not followed"))
            }
            var osErrno = 0
            _ = chest_curl_getinfo_long(handle, CURLINFO_OS_ERRNO, &osErrno)
            return .failure(
                transportError(
                    code, osErrno: Int32(truncatingIfNeeded: osErrno),
                    cancelled: cancelled.isSet))
        }
        var status = 0
        guard chest_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status) == CURLE_OK, status > 0 else {
            return .failure(.malformedReply(provider: provider, reason: "not an HTTP response"))
        }
        return .success(Reply(status: status, headers: transfer.headers, body: Data(transfer.body)))
    }

    /// libcurl opened and curl_global_init called once, before the first handle (it is not safe to race with another
    /// thread's first call): whether it started, or the library is missing.
    private static let curlReady = Result { () throws(LibraryUnavailable) -> Bool in
        try OnDemandLibrary.curl.open()
        return curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
    }

    /// Whether the task that asked was cancelled; read by libcurl's progress callback on the transfer's thread.
    private final class CancelFlag: Sendable {
        private let value = Atomic<Bool>(false)
        func set() { value.store(true, ordering: .relaxed) }
        var isSet: Bool { value.load(ordering: .relaxed) }
    }

    /// What libcurl's callbacks gather during one transfer, on the one thread that runs it.
    private final class Transfer {
        let cancelled: CancelFlag
        var body: [UInt8] = []
        /// Bytes taken so far, headers (a redirect's too) and the decoded body.
        private var taken = 0
        /// Whether the reply went past `replyLimit`, which stopped the transfer.
        private(set) var tooLarge = false
        /// The last response's header fields (a redirect's are dropped at the next status line); a repeated field's
        /// values joined with ", ".
        var headers: [String: String] = [:]
        private var lastName: String?

        init(cancelled: CancelFlag) { self.cancelled = cancelled }

        /// Counts `length` more bytes; false once the reply is past the limit.
        func take(_ length: Int) -> Bool {
            taken += length
            tooLarge = tooLarge || taken > WeatherHTTPClient.replyLimit
            return !tooLarge
        }

        /// One header line as libcurl hands it over, CRLF included: "HTTP/1.1 200 OK", "Name: value", a folded
        /// continuation starting with a space or a tab, or the empty line that ends the headers.
        func headerLine(_ bytes: UnsafeBufferPointer<UInt8>) {
            var line = Substring(String(decoding: bytes, as: UTF8.self))
            while let last = line.last, last == "\r\n" || last == "\n" || last == "\r" { line.removeLast() }
            if line.hasPrefix("HTTP/") {
                headers = [:]
                lastName = nil
            } else if let first = line.first, first == " " || first == "\t" {
                guard let lastName, let value = headers[lastName] else { return }
                let more = String(line).trimmingSpaces()
                headers[lastName] = value.isEmpty ? more : more.isEmpty ? value : value + " " + more
            } else if let colon = line.firstIndex(of: ":") {
                let name = String(line[..<colon])
                let value = String(line[line.index(after: colon)...]).trimmingSpaces()
                let key = headers.keys.first { $0.lowercased() == name.lowercased() } ?? name
                headers[key] = headers[key].map { $0 + ", " + value } ?? value
                lastName = key
            }
        }
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
    private func transportError(_ code: CURLcode, osErrno: Int32, cancelled: Bool) -> WeatherError {
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
