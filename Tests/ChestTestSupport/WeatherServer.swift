import ChestIO
import Foundation
import Glibc
import Synchronization

/// A real HTTP/1.1 server on 127.0.0.1 that answers like Open-Meteo (`/v1/forecast`) and OpenWeatherMap
/// (`/data/2.5/weather`), with the bodies those providers document (docs/WEATHER.md, docs/DESIGN.md "Weather providers").
///
/// It listens on an ephemeral port and serves one connection at a time on its own thread; every blocking socket
/// call happens there. Set `scenario` to choose the answer; `stop()` closes the port, so later connections are
/// refused.
package final class WeatherServer: Sendable {
    /// What the server answers.
    package indirect enum Scenario: Sendable, Hashable {
        /// 200 with this weather, in the shape of the provider the path names.
        case weather(Weather)
        /// 429 with the provider's body; a Retry-After header only when `retryAfter` is given. `reason` replaces
        /// Open-Meteo's default "Minutely API request limit exceeded…".
        case rateLimited(retryAfter: Int? = nil, reason: String? = nil)
        /// 401 with the provider's body, whatever the key.
        case badKey
        /// 400 with the provider's envelope and this reason.
        case badRequest(reason: String)
        /// This 5xx status with the HTML page a gateway sends.
        case serverError(status: Int)
        /// Any status, headers and body.
        case raw(status: Int, headers: [String: String] = [:], body: String)
        /// Any status, headers and body bytes (a compressed body, with its `Content-Encoding`).
        case bytes(status: Int, headers: [String: String] = [:], body: Data)
        /// Reads the request and never answers (the connection stays open until `stop()`).
        case hang
        /// Waits, then answers as `then`.
        case slow(seconds: Double, then: Scenario)
    }

    /// Current conditions as both providers would encode them.
    package struct Weather: Sendable, Hashable {
        /// Open-Meteo's `weather_code` (WMO); `nil` is sent as JSON null.
        package var openMeteoCode: Int?
        /// OpenWeatherMap's `weather[].id` entries.
        package var openWeatherMapIDs: [Int]
        /// °C; `nil` is sent as JSON null by Open-Meteo and leaves out `main.temp` for OpenWeatherMap.
        package var temperatureC: Double?
        package var observedAt: Date

        package init(openMeteoCode: Int?, openWeatherMapIDs: [Int], temperatureC: Double?, observedAt: Date) {
            self.openMeteoCode = openMeteoCode
            self.openWeatherMapIDs = openWeatherMapIDs
            self.temperatureC = temperatureC
            self.observedAt = observedAt
        }

        /// Moderate snow fall (WMO 73, OpenWeatherMap 601).
        package static func snowy(_ temperatureC: Double, at observedAt: Date) -> Weather {
            Weather(openMeteoCode: 73, openWeatherMapIDs: [601], temperatureC: temperatureC, observedAt: observedAt)
        }

        /// Clear sky (WMO 0, OpenWeatherMap 800).
        package static func clear(_ temperatureC: Double, at observedAt: Date) -> Weather {
            Weather(openMeteoCode: 0, openWeatherMapIDs: [800], temperatureC: temperatureC, observedAt: observedAt)
        }
    }

    /// One request as it arrived.
    package struct Request: Sendable, Hashable {
        package var method: String
        package var path: String
        /// The raw query string, still percent-encoded.
        package var query: String
        /// The decoded query parameters, in order.
        package var parameters: [Parameter]
        /// Header names in lower case.
        package var headers: [String: String]

        package struct Parameter: Sendable, Hashable {
            package var name: String
            package var value: String
        }

        /// The first value of a query parameter.
        package subscript(parameter name: String) -> String? {
            parameters.first { $0.name == name }?.value
        }
    }

    /// 127.0.0.1 and the ephemeral port, e.g. http://127.0.0.1:41234: the base URL to give a provider.
    package let baseURL: URL
    package let port: UInt16

    private let state: Shared
    private let finished = DispatchSemaphore(value: 0)

    // Mutex cannot be copied into the thread's closure; a class holding it can.
    private final class Shared: Sendable {
        let mutex: Mutex<State>
        init(_ state: State) { mutex = Mutex(state) }
        func withLock<T: Sendable>(_ body: (inout sending State) -> sending T) -> T { mutex.withLock(body) }
    }

    private struct State: Sendable {
        var scenario: Scenario
        var validKey: String?
        var requests: [Request] = []
        var stopping = false
        var stopped = false
        var portHolder: Int32?
    }

    /// Starts listening at once.
    /// - Parameters:
    ///   - scenario: the first answer; clear at 20 °C observed now by default.
    ///   - validKey: the only OpenWeatherMap key accepted; `nil` accepts any non-empty key.
    package init(scenario: Scenario = .weather(.clear(20, at: Date())), validKey: String? = nil) throws(SystemCallError)
    {
        // The holder is bound first and never listens: it keeps the port after stop() closes the listener, so that
        // connections are refused and no other test's server is given the port (one was, under load, and answered
        // instead). Both share the port by SO_REUSEPORT, which a server binding port 0 does not ask for.
        let holder = try Self.portSharingSocket(port: 0)
        let fd: Int32
        do throws(SystemCallError) {
            fd = try Self.portSharingSocket(port: holder.port).fd
            guard listen(fd, 16) == 0 else {
                let error = SystemCallError("listen", path: "127.0.0.1:\(holder.port)")
                close(fd)
                throw error
            }
        } catch {
            close(holder.fd)
            throw error
        }
        port = holder.port
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
        state = Shared(State(scenario: scenario, validKey: validKey, portHolder: holder.fd))

        let thread = Thread { [state, finished] in
            Self.serve(listening: fd, state: state)
            finished.signal()
        }
        thread.name = "weather-server"
        thread.start()
    }

    deinit {
        stop()
        if let holder = state.withLock({ $0.portHolder }) { close(holder) }
    }

    /// The answer to the next requests.
    package var scenario: Scenario {
        get { state.withLock { $0.scenario } }
        set { state.withLock { $0.scenario = newValue } }
    }

    /// The only OpenWeatherMap key accepted; `nil` accepts any non-empty key.
    package var validKey: String? {
        get { state.withLock { $0.validKey } }
        set { state.withLock { $0.validKey = newValue } }
    }

    /// Every request received so far, oldest first.
    package var requests: [Request] { state.withLock { $0.requests } }

    /// How many requests arrived.
    package var hits: Int { state.withLock { $0.requests.count } }

    /// Closes the listening port and any connection left hanging, and waits for the server thread to end.
    /// Connections to the port are refused afterwards: it stays bound, not listening, until the server is gone.
    package func stop() {
        let alreadyStopped = state.withLock { state in
            defer {
                state.stopping = true
                state.stopped = true
            }
            return state.stopped
        }
        guard !alreadyStopped else { return }
        finished.wait()
    }

    /// A close-on-exec TCP socket bound to 127.0.0.1:`port` (0: one the kernel picks) with SO_REUSEPORT.
    private static func portSharingSocket(port: UInt16) throws(SystemCallError) -> (fd: Int32, port: UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemCallError("socket") }
        var yes: Int32 = 1
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let failedCall = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address -> String? in
                if setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &yes, socklen_t(MemoryLayout<Int32>.size)) != 0 {
                    return "setsockopt"
                }
                if bind(fd, address, length) != 0 { return "bind" }
                if getsockname(fd, address, &length) != 0 { return "getsockname" }
                return nil
            }
        }
        if let failedCall {
            let error = SystemCallError(failedCall, path: "127.0.0.1:\(port)")
            close(fd)
            throw error
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    // MARK: - Server thread

    private static func serve(listening fd: Int32, state: Shared) {
        var hanging: [Int32] = []
        // shutdown before close: a process forked by another test's thread holds a copy of these descriptors
        // until it execs, and while it does a close alone leaves the socket listening, so a connection made just
        // after stop() was taken, then reset ("connection lost", not refused).
        defer {
            for connection in hanging {
                shutdown(connection, Int32(SHUT_RDWR))
                close(connection)
            }
            shutdown(fd, Int32(SHUT_RDWR))
            close(fd)
        }
        while !state.withLock({ $0.stopping }) {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let connection = accept(fd, nil, nil)
            guard connection >= 0 else { continue }
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            var timeout = timeval(tv_sec: 2, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            guard let request = readRequest(connection) else {
                close(connection)
                continue
            }
            let scenario = state.withLock { state in
                state.requests.append(request)
                return state.scenario
            }
            var current = scenario
            while case .slow(let seconds, let then) = current {
                // A slow provider: it answers after `seconds`, or at once when the server stops.
                _ = holdsWithin(seconds) { state.withLock { $0.stopping } }
                current = then
            }
            if case .hang = current {
                hanging.append(connection)
                continue
            }
            let response = answer(request, scenario: current, validKey: state.withLock { $0.validKey })
            send(response, to: connection)
            shutdown(connection, Int32(SHUT_WR))
            close(connection)
        }
    }

    private static func readRequest(_ fd: Int32) -> Request? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let terminator: [UInt8] = Array("\r\n\r\n".utf8)
        while bytes.count < 64 * 1024 {
            let count = (try? FileDescriptor(rawValue: fd).read(into: &buffer)) ?? -1
            guard count > 0 else { return nil }
            bytes += buffer[..<count]
            if let end = bytes.firstRange(of: terminator) {
                return parseRequest(String(decoding: bytes[..<end.lowerBound], as: UTF8.self))
            }
        }
        return nil
    }

    private static func parseRequest(_ head: String) -> Request? {
        let lines = head.components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1.") else { return nil }
        let target = String(parts[1])
        let path = String(target.prefix { $0 != "?" })
        let query = target.contains("?") ? String(target[target.index(after: target.firstIndex(of: "?")!)...]) : ""
        let parameters = query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in
                String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
            }
            return Request.Parameter(name: decode(halves[0]), value: halves.count > 1 ? decode(halves[1]) : "")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return Request(method: String(parts[0]), path: path, query: query, parameters: parameters, headers: headers)
    }

    private static func send(_ response: Response, to fd: Int32) {
        var head = "HTTP/1.1 \(response.status) \(reasonPhrase(response.status))\r\n"
        head += "Content-Type: \(response.contentType)\r\n"
        head += "Content-Length: \(response.bytes?.count ?? response.body.utf8.count)\r\n"
        for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        head += "Connection: close\r\n\r\n"
        let bytes = Array(head.utf8) + Array(response.bytes ?? Data(response.body.utf8))
        var offset = 0
        while offset < bytes.count {
            let sent =
                (try? retryingOnInterrupt("send") {
                    bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                }) ?? -1
            guard sent > 0 else { return }
            offset += sent
        }
    }

    private static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 404: "Not Found"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Status"
        }
    }

    // MARK: - Answers

    struct Response {
        var status: Int
        var body: String
        var headers: [String: String] = [:]
        var contentType = "application/json; charset=utf-8"
        /// Sent instead of `body` when set.
        var bytes: Data?
    }

    static func answer(_ request: Request, scenario: Scenario, validKey: String?) -> Response {
        if case .raw(let status, let headers, let body) = scenario {
            return Response(status: status, body: body, headers: headers)
        }
        if case .bytes(let status, let headers, let body) = scenario {
            return Response(status: status, body: "", headers: headers, bytes: body)
        }
        if case .serverError(let status) = scenario {
            return Response(status: status, body: gatewayPage(status), contentType: "text/html")
        }
        switch (request.method, request.path) {
        case ("GET", "/v1/forecast"): return openMeteoAnswer(request, scenario: scenario)
        case ("GET", "/data/2.5/weather"):
            return openWeatherMapAnswer(request, scenario: scenario, validKey: validKey)
        default: return Response(status: 404, body: "Not Found", contentType: "text/plain")
        }
    }

    /// JSON number text as the providers print it: "-1.0", "20.0", "18.1".
    static func jsonNumber(_ value: Double?) -> String {
        guard let value else { return "null" }
        return value.rounded() == value && abs(value) < 1e15 ? "\(Int64(value)).0" : "\(value)"
    }

    /// A JSON string literal.
    static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    private static func gatewayPage(_ status: Int) -> String {
        let title = "\(status) \(reasonPhrase(status))"
        return "<html>\r\n<head><title>\(title)</title></head>\r\n<body>\r\n<center><h1>\(title)</h1></center>\r\n"
            + "<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"
    }
}
