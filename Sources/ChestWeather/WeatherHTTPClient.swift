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
    let secret: String?

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

}
