import ChestCore
import ChestTestSupport
import Foundation
import Synchronization
import Testing

@testable import ChestIO
@testable import ChestWeather

/// The providers against a real HTTP server on loopback that answers as each provider documents.
@Suite(.timeLimit(.minutes(1)))
struct WeatherProviderTests {
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    /// Open-Meteo's current conditions are 15-minutely: 14:00 for a request at 14:13.
    let observed = Date(timeIntervalSince1970: 1_790_000_000 - 800)
    let here = Coordinate(latitude: 48.858_372, longitude: 2.294_481)
    let key = "sekrit0123456789abcdef0123456789"

    // MARK: - Open-Meteo

    @Test func openMeteoSnowyAtMinusOne() async throws {
        let server = try WeatherServer(scenario: .weather(.snowy(-1, at: observed)))
        let provider = OpenMeteoProvider(baseURL: server.baseURL)
        let observation = try await provider.fetch(at: here, now: now)
        #expect(
            observation
                == WeatherObservation(
                    condition: .snowy, temperatureC: -1,
                    coordinate: Coordinate(latitude: 48.86, longitude: 2.29),
                    observedAt: observed, fetchedAt: now, provider: "open-meteo"))
        #expect(server.hits == 1)
    }

    @Test func openMeteoClearAtTwenty() async throws {
        let server = try WeatherServer(scenario: .weather(.clear(20, at: observed)))
        let observation = try await OpenMeteoProvider(baseURL: server.baseURL).fetch(at: here, now: now)
        #expect(observation.condition == .clear)
        #expect(observation.temperatureC == 20)
        #expect(observation.observedAt == observed)
    }

    @Test func anUndocumentedCodeIsUnknownButTheTemperatureStays() async throws {
        let weather = WeatherServer.Weather(
            openMeteoCode: 42, openWeatherMapIDs: [], temperatureC: 3.5,
            observedAt: observed)
        let server = try WeatherServer(scenario: .weather(weather))
        let observation = try await OpenMeteoProvider(baseURL: server.baseURL).fetch(at: here, now: now)
        #expect(observation.condition == nil)
        #expect(observation.temperatureC == 3.5)
    }

    /// Privacy (docs/DESIGN.md "Reliability and security"): the request carries the rounded position and the fixed parameters, nothing else.
    @Test func theOpenMeteoQueryCarriesOnlyCoordinatesRoundedToTwoDecimals() async throws {
        let server = try WeatherServer(scenario: .weather(.clear(20, at: observed)))
        let provider = OpenMeteoProvider(baseURL: server.baseURL)
        _ = try await provider.fetch(at: here, now: now)
        _ = try await provider.fetch(at: Coordinate(latitude: -33.778_563, longitude: -150.895_521), now: now)
        _ = try await provider.fetch(at: Coordinate(latitude: 0.004_9, longitude: -0.004_9), now: now)
        let requests = server.requests
        #expect(requests.map(\.path) == ["/v1/forecast", "/v1/forecast", "/v1/forecast"])
        #expect(
            requests.map(\.query) == [
                "latitude=48.86&longitude=2.29&current=weather_code,temperature_2m&timeformat=unixtime",
                "latitude=-33.78&longitude=-150.90&current=weather_code,temperature_2m&timeformat=unixtime",
                "latitude=0.00&longitude=0.00&current=weather_code,temperature_2m&timeformat=unixtime",
            ])
        #expect(requests[0].headers["user-agent"] == "chestd")
    }

    @Test func openMeteo429GivesRateLimitedWithRetryAfter() async throws {
        let server = try WeatherServer(scenario: .rateLimited(retryAfter: 120))
        let error = await #expect(throws: WeatherError.self) {
            try await OpenMeteoProvider(baseURL: server.baseURL).fetch(at: here, now: now)
        }
        let reason = "Minutely API request limit exceeded. Please try again in one minute."
        #expect(error == .rateLimited(provider: "open-meteo", retryAfter: 120, reason: reason))
        #expect(error?.retryAfter == 120)
        #expect(error?.isOffline == false)
        #expect(
            error?.description == "open-meteo rate limit reached (HTTP 429): "
                + "Minutely API request limit exceeded. Please try again in one minute; retry after 120 s")
    }

    @Test func withoutRetryAfterTheReasonNamesTheWait() async throws {
        let server = try WeatherServer(
            scenario: .rateLimited(
                reason: "Hourly API request limit exceeded. Please try again in the next hour."))
        let error = await #expect(throws: WeatherError.self) {
            try await OpenMeteoProvider(baseURL: server.baseURL).fetch(at: here, now: now)
        }
        #expect(error?.retryAfter == 3600)
    }

    @Test func openMeteo400GivesTheProvidersReason() async throws {
        let reason = "Cannot initialize WeatherVariable from invalid String value tempeture_2m for key current"
        let server = try WeatherServer(scenario: .badRequest(reason: reason))
        let error = await #expect(throws: WeatherError.self) {
            try await OpenMeteoProvider(baseURL: server.baseURL).fetch(at: here, now: now)
        }
        #expect(error == .badRequest(provider: "open-meteo", reason: reason))
        #expect(error?.description == "open-meteo rejected the request (HTTP 400): \(reason)")
    }

    @Test func aServerErrorIsReportedAsSuch() async throws {
        let server = try WeatherServer(scenario: .serverError(status: 502))
        let error = await #expect(throws: WeatherError.self) {
            try await OpenMeteoProvider(baseURL: server.baseURL).fetch(at: here, now: now)
        }
        #expect(error == .serverError(provider: "open-meteo", status: 502))
    }

    @Test func aMaintenancePageIsAMalformedReply() async throws {
        let server = try WeatherServer(scenario: .raw(status: 200, body: "<html>maintenance</html>"))
        let error = await #expect(throws: WeatherError.self) {
            try await OpenMeteoProvider(baseURL: server.baseURL).fetch(at: here, now: now)
        }
        guard case .malformedReply(provider: "open-meteo", _) = error else {
            Issue.record("expected a malformed reply, got \(String(describing: error))")
            return
        }
    }

    @Test func aWrongBaseURLIsA404() async throws {
        let server = try WeatherServer()
        let base = server.baseURL.appendingPathComponent("nowhere")
        let error = await #expect(throws: WeatherError.self) {
            try await OpenMeteoProvider(baseURL: base).fetch(at: here, now: now)
        }
        #expect(error == .unexpectedStatus(provider: "open-meteo", status: 404, reason: nil))
        #expect(server.requests.first?.path == "/nowhere/v1/forecast")
    }

    @Test func aStoppedServerIsUnreachable() async throws {
        let server = try WeatherServer()
        let provider = OpenMeteoProvider(baseURL: server.baseURL)
        _ = try await provider.fetch(at: here, now: now)
        server.stop()
        let error = await #expect(throws: WeatherError.self) {
            try await provider.fetch(at: here, now: now)
        }
        #expect(error == .unreachable(provider: "open-meteo", reason: "connection refused"))
        #expect(error?.isOffline == true)
        #expect(error?.description == "cannot reach open-meteo: connection refused")
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let server = try WeatherServer(scenario: .hang)
        let started = Date()
        let error = await #expect(throws: WeatherError.self) {
            try await OpenMeteoProvider(baseURL: server.baseURL, timeout: 1).fetch(at: here, now: now)
        }
        #expect(error == .timedOut(provider: "open-meteo", after: 1))
        #expect(error?.isOffline == true)
        #expect(Date().timeIntervalSince(started) < 10)
    }

    @Test func aSlowServerWithinTheTimeoutIsFine() async throws {
        let server = try WeatherServer(scenario: .slow(seconds: 0.3, then: .weather(.snowy(-1, at: observed))))
        let observation = try await OpenMeteoProvider(baseURL: server.baseURL, timeout: 5).fetch(at: here, now: now)
        #expect(observation.condition == .snowy)
    }

    /// A server that ignores `timeformat=unixtime` sends ISO 8601 minutes in its `utc_offset_seconds`.
    @Test func anISOTimeWithoutZoneIsReadInTheReplysOffset() throws {
        let body =
            #"{"latitude":48.64,"longitude":2.3199997,"utc_offset_seconds":7200,"timezone":"Europe/Paris","#
            + #""current_units":{"time":"iso8601","interval":"seconds","temperature_2m":"°C","weather_code":"wmo code"},"#
            + #""current":{"time":"2026-04-04T18:45","interval":900,"temperature_2m":18.1,"weather_code":0}}"#
        let observation = try OpenMeteoProvider.parse(Data(body.utf8), coordinate: here, fetchedAt: now)
        #expect(observation.observedAt == ISO8601.parse("2026-04-04T16:45:00Z"))
        #expect(observation.condition == .clear)
        #expect(observation.temperatureC == 18.1)
    }

    /// Found by the weather fuzzer (docs/RELIABILITY.md): a time too far in the future to write crashed chest-weather.
    @Test func anObservationTimeOutsideTheCalendarIsAMalformedReply() {
        let openMeteo =
            #"{"current":{"time":2222222221800000000,"interval":900,"weather_code":65,"temperature_2m":1.2}}"#
        #expect(throws: WeatherError.self) {
            try OpenMeteoProvider.parse(Data(openMeteo.utf8), coordinate: here, fetchedAt: now)
        }
        let openWeatherMap = #"{"weather":[{"id":600}],"main":{"temp":-1},"dt":-5,"cod":200}"#
        #expect(throws: WeatherError.self) {
            try OpenWeatherMapProvider.parse(Data(openWeatherMap.utf8), coordinate: here, fetchedAt: now)
        }
    }

    @Test func aTemperatureInFahrenheitIsRefused() throws {
        let body = #"{"current_units":{"temperature_2m":"°F"},"current":{"time":1790000000,"temperature_2m":30.2}}"#
        #expect(throws: WeatherError.self) {
            try OpenMeteoProvider.parse(Data(body.utf8), coordinate: here, fetchedAt: now)
        }
    }

    // MARK: - OpenWeatherMap

    @Test func openWeatherMapSnowyAndClear() async throws {
        let server = try WeatherServer(scenario: .weather(.snowy(-1, at: observed)), validKey: key)
        let provider = OpenWeatherMapProvider(key: key, baseURL: server.baseURL)
        let snowy = try await provider.fetch(at: here, now: now)
        #expect(
            snowy
                == WeatherObservation(
                    condition: .snowy, temperatureC: -1,
                    coordinate: Coordinate(latitude: 48.86, longitude: 2.29),
                    observedAt: observed, fetchedAt: now, provider: "openweathermap"))
        server.scenario = .weather(.clear(20, at: observed))
        let clear = try await provider.fetch(at: here, now: now)
        #expect(clear.condition == .clear)
        #expect(clear.temperatureC == 20)
        #expect(
            server.requests.map(\.query) == Array(repeating: "lat=48.86&lon=2.29&units=metric&appid=\(key)", count: 2))
        #expect(server.requests.map(\.path) == ["/data/2.5/weather", "/data/2.5/weather"])
    }

    @Test func mistAndRainTogetherAreRainy() async throws {
        let weather = WeatherServer.Weather(
            openMeteoCode: nil, openWeatherMapIDs: [701, 501], temperatureC: 12,
            observedAt: observed)
        let server = try WeatherServer(scenario: .weather(weather))
        let observation = try await OpenWeatherMapProvider(key: key, baseURL: server.baseURL).fetch(at: here, now: now)
        #expect(observation.condition == .rainy)
    }

    @Test func openWeatherMap401IsABadKeyAndNeverShowsTheKey() async throws {
        let server = try WeatherServer(scenario: .weather(.clear(20, at: observed)), validKey: "another-key")
        let provider = OpenWeatherMapProvider(key: key, baseURL: server.baseURL)
        let error = await #expect(throws: WeatherError.self) { try await provider.fetch(at: here, now: now) }
        #expect(error == .badKey(provider: "openweathermap"))
        #expect(error?.retryAfter == 3600)
        let text = try #require(error).description
        #expect(text.hasPrefix("openweathermap refused the API key (HTTP 401)"))
        #expect(!text.contains(key))
        #expect(!String(reflecting: try #require(error)).contains(key))
    }

    @Test func openWeatherMap429() async throws {
        let server = try WeatherServer(scenario: .rateLimited())
        let error = await #expect(throws: WeatherError.self) {
            try await OpenWeatherMapProvider(key: key, baseURL: server.baseURL).fetch(at: here, now: now)
        }
        guard case .rateLimited("openweathermap", nil, let reason?) = error else {
            Issue.record("expected rate limited, got \(String(describing: error))")
            return
        }
        #expect(reason.hasPrefix("Your account is temporary blocked"))
        #expect(error?.retryAfter == 600)
    }

    @Test func openWeatherMap400() async throws {
        let server = try WeatherServer(scenario: .badRequest(reason: "wrong latitude"))
        let error = await #expect(throws: WeatherError.self) {
            try await OpenWeatherMapProvider(key: key, baseURL: server.baseURL).fetch(at: here, now: now)
        }
        #expect(error == .badRequest(provider: "openweathermap", reason: "wrong latitude"))
    }

    /// The key is in the request URL: no error, description or log line may carry it, even when the server echoes
    /// it or the transport fails.
    @Test func theKeyAppearsInNoDescriptionOrLogLine() async throws {
        let lines = CapturedLines()
        let log = Log(verbose: true) { lines.append($0) }
        let server = try WeatherServer(
            scenario: .raw(status: 400, body: "{\"cod\":\"400\",\"message\":\"bad appid \(key)\"}"))
        let provider = OpenWeatherMapProvider(key: key, baseURL: server.baseURL, timeout: 1)
        var errors: [WeatherError] = []
        let scenarios: [WeatherServer.Scenario] = [
            .raw(status: 400, body: "{\"cod\":\"400\",\"message\":\"bad appid \(key)\"}"),
            .raw(status: 418, body: "{\"message\":\"\(key)\"}"),
            .raw(status: 429, headers: ["Retry-After": "7"], body: "{\"cod\":429,\"message\":\"\(key)\"}"),
            .raw(status: 200, body: "{\"cod\":200,\"dt\":\"\(key)\"}"),
            .badKey, .serverError(status: 503), .hang,
        ]
        for scenario in scenarios {
            server.scenario = scenario
            do {
                _ = try await provider.fetch(at: here, now: now)
                Issue.record("\(scenario) should fail")
            } catch {
                errors.append(error)
                log.warning("weather: \(error)")
                log.debug("weather: \(String(reflecting: error))")
            }
        }
        server.stop()
        do {
            _ = try await provider.fetch(at: here, now: now)
        } catch {
            errors.append(error)
            log.warning("weather: \(error)")
        }
        #expect(errors.count == scenarios.count + 1)
        #expect(errors.first == .badRequest(provider: "openweathermap", reason: "bad appid [key]"))
        for error in errors { #expect(!error.description.contains(key), "\(error)") }
        #expect(lines.all.count == 2 * scenarios.count + 1)
        for line in lines.all { #expect(!line.contains(key), "\(line)") }
        for text in ["\(provider)", String(reflecting: provider), dumped(provider)] {
            #expect(!text.contains(key), "\(text)")
        }
    }

    @Test func anEmptyKeyIsABadKeyWithoutARequest() async throws {
        let server = try WeatherServer()
        let error = await #expect(throws: WeatherError.self) {
            try await OpenWeatherMapProvider(key: "  ", baseURL: server.baseURL).fetch(at: here, now: now)
        }
        #expect(error == .badKey(provider: "openweathermap"))
        #expect(server.hits == 0)
    }

    // MARK: - Retry-After

    @Test func retryAfterIsSecondsOrAnHTTPDate() {
        #expect(WeatherHTTPClient.parseRetryAfter("120", now: now) == 120)
        #expect(WeatherHTTPClient.parseRetryAfter("Mon, 21 Sep 2026 14:23:20 GMT", now: now) == 600)
        #expect(WeatherHTTPClient.parseRetryAfter("soon", now: now) == nil)
    }

    /// IMF-fixdates read by arithmetic (no DateFormatter): a leap day, an impossible day, a zone other than GMT.
    @Test func httpDatesAreReadByArithmetic() {
        #expect(WeatherHTTPClient.httpDate("Sun, 06 Nov 1994 08:49:37 GMT") == Date(timeIntervalSince1970: 784_111_777))
        #expect(WeatherHTTPClient.httpDate("Tue, 29 Feb 2028 00:00:00 GMT") == ISO8601.parse("2028-02-29T00:00:00Z"))
        #expect(WeatherHTTPClient.httpDate("Thu, 29 Feb 2029 00:00:00 GMT") == nil)
        #expect(WeatherHTTPClient.httpDate("Mon, 21 Sep 2026 24:00:00 GMT") == nil)
        #expect(WeatherHTTPClient.httpDate("Mon, 21 Sep 2026 14:23:20 PST") == nil)
        #expect(WeatherHTTPClient.httpDate("Monday, 21-Sep-26 14:23:20 GMT") == nil)
        #expect(WeatherHTTPClient.parseRetryAfter("Mon, 21 Sep 2026 14:00:00 GMT", now: now) == 0)
    }

    /// Open-Meteo's minutes without a zone, in offsets either side of UTC; anything but that shape is refused.
    @Test func localTimesAreReadInTheirOffset() {
        #expect(
            OpenMeteoProvider.localTime("2026-04-04T18:45", utcOffset: 7200) == ISO8601.parse("2026-04-04T16:45:00Z"))
        #expect(
            OpenMeteoProvider.localTime("2026-01-01T02:00", utcOffset: -18_000) == ISO8601.parse("2026-01-01T07:00:00Z")
        )
        #expect(OpenMeteoProvider.localTime("2026-12-31T23:30", utcOffset: 0) == ISO8601.parse("2026-12-31T23:30:00Z"))
        for text in [
            "2026-04-04 18:45", "2026-04-04T18:45:00", "2026-4-04T18:45", "2026-02-30T10:00", "2026-04-04T25:00",
        ] {
            #expect(OpenMeteoProvider.localTime(text, utcOffset: 0) == nil, "\(text)")
        }
    }

    /// A key with characters outside the unreserved set reaches the server percent-encoded, byte by byte.
    @Test func queryValuesArePercentEncoded() throws {
        #expect(WeatherHTTPClient.percentEncoded("a b&c=d/é~,.-_") == "a%20b%26c%3Dd%2F%C3%A9~,.-_")
        let url = try #require(
            WeatherHTTPClient.url(
                base: URL(string: "https://example.org/prefix/")!, path: "/v1/forecast",
                query: [("latitude", "-0.05"), ("appid", "k+y")]))
        #expect(url.absoluteString == "https://example.org/prefix/v1/forecast?latitude=-0.05&appid=k%2By")
    }

    private func dumped(_ value: Any) -> String {
        var text = ""
        dump(value, to: &text)
        return text
    }
}

/// Log lines captured from a `Log` sink.
final class CapturedLines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}
