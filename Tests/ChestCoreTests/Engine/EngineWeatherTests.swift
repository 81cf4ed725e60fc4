import Foundation
import Testing

@testable import ChestCore

private typealias F = CoreFixture

// Weather and temperature

struct WeatherCase: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var condition: WeatherCondition?
    var temperature: Double?
    /// Seconds between the observation and now.
    var age: Double = 60
    /// Metres north of the reader.
    var distance: Double = 500
    /// The set that opens page 1 (weather snowy | temperature -5..3), or nil.
    var opens: String?
}

@Suite struct EngineWeatherTests {
    static let message = F.message(pages: [
        Page(text: "snow", setA: [.weather(.snowy)], setB: [.temperature(Bounds(min: -5, max: 3))])
    ])

    static func observation(_ testCase: WeatherCase, now: Double) -> WeatherObservation {
        WeatherObservation(
            condition: testCase.condition, temperatureC: testCase.temperature,
            coordinate: F.north(of: F.tower, metres: testCase.distance),
            observedAt: F.t0.addingTimeInterval(now - testCase.age),
            fetchedAt: F.t0.addingTimeInterval(now), provider: "open-meteo")
    }

    static let cases: [WeatherCase] = [
        WeatherCase(testDescription: "snowing, 10 °C", condition: .snowy, temperature: 10, opens: "A"),
        WeatherCase(testDescription: "clear, -2 °C", condition: .clear, temperature: -2, opens: "B"),
        WeatherCase(testDescription: "clear, -5 °C", condition: .clear, temperature: -5, opens: "B"),
        WeatherCase(testDescription: "clear, 3 °C", condition: .clear, temperature: 3, opens: "B"),
        WeatherCase(testDescription: "clear, 3.1 °C", condition: .clear, temperature: 3.1, opens: nil),
        WeatherCase(testDescription: "snowing, 0 °C: set A wins", condition: .snowy, temperature: 0, opens: "A"),
        WeatherCase(testDescription: "raining, 10 °C", condition: .rainy, temperature: 10, opens: nil),
        WeatherCase(testDescription: "unmapped condition, 0 °C", condition: nil, temperature: 0, opens: "B"),
        WeatherCase(testDescription: "clear, temperature unknown", condition: .clear, temperature: nil, opens: nil),
        WeatherCase(
            testDescription: "snowing 29 min ago", condition: .snowy, temperature: 0, age: 29 * 60,
            opens: "A"),
        WeatherCase(
            testDescription: "snowing 31 min ago (stale)", condition: .snowy, temperature: 0, age: 31 * 60,
            opens: nil),
        WeatherCase(
            testDescription: "snowing 4.9 km away", condition: .snowy, temperature: 0, distance: 4_900,
            opens: "A"),
        WeatherCase(
            testDescription: "snowing 5.1 km away", condition: .snowy, temperature: 0, distance: 5_100,
            opens: nil),
        WeatherCase(
            testDescription: "snowing 60 km away", condition: .snowy, temperature: 0, distance: 60_000,
            opens: nil),
    ]

    @Test(arguments: cases)
    func evaluatesObservation(_ testCase: WeatherCase) {
        var engine = F.engine([F.stored(Self.message)])
        #expect(engine.needsWeather)
        _ = engine.handle(.fix(F.fix(at: 1), F.now(1)))
        let observation = Self.observation(testCase, now: 2)
        let effects = engine.handle(.weatherFetched(observation, F.now(2)))
        #expect(
            effects.first
                == .emit(
                    .weather(
                        WeatherSummary(
                            condition: testCase.condition, temperatureC: testCase.temperature,
                            observedAt: F.t0.addingTimeInterval(2 - testCase.age),
                            latitude: observation.coordinate.latitude,
                            longitude: observation.coordinate.longitude))))
        #expect(effects.unlockEvents.map(\.set?.rawValue) == (testCase.opens.map { [$0] } ?? []))
        #expect(engine.needsWeather == (testCase.opens == nil))
    }

    @Test func aMessageAddedUnderMatchingWeatherOpensAtOnce() {
        var engine = F.engine([])
        _ = engine.handle(.fix(F.fix(at: 1), F.now(1)))
        _ = engine.handle(
            .weatherFetched(
                Self.observation(
                    WeatherCase(
                        testDescription: "", condition: .snowy,
                        temperature: 10), now: 2), F.now(2)))
        #expect(!engine.needsWeather)
        let effects = engine.ingest([F.stored(Self.message)], F.now(3))
        #expect(effects.unlockEvents.map(\.set?.rawValue) == ["A"])
    }

    @Test func weatherWithoutAFixIsUnknown() {
        var engine = F.engine([F.stored(Self.message)])
        let effects = engine.handle(
            .weatherFetched(
                Self.observation(
                    WeatherCase(
                        testDescription: "", condition: .snowy,
                        temperature: 0), now: 2), F.now(2)))
        #expect(effects.unlocks == [])
        #expect(engine.weatherReading(now: F.now(2)) == .unknown(.noPosition))
    }

    static let explanations: [(String, WeatherCase?, [LockKind: String], [LockKind: String])] = [
        (
            "no reading", nil, [.weather: "weather unknown: no reading yet"],
            [.temperature: "temperature unknown: no reading yet"]
        ),
        (
            "stale", WeatherCase(testDescription: "", condition: .clear, temperature: 10, age: 45 * 60),
            [.weather: "weather unknown: last reading 45 min old"],
            [.temperature: "temperature unknown: last reading 45 min old"]
        ),
        (
            "far", WeatherCase(testDescription: "", condition: .clear, temperature: 10, distance: 12_400),
            [.weather: "weather unknown: last reading is for a place 12 km away"],
            [.temperature: "temperature unknown: last reading is for a place 12 km away"]
        ),
        (
            "usable", WeatherCase(testDescription: "", condition: .rainy, temperature: 10.3),
            [.weather: "raining, needs snowy"], [.temperature: "it is 10.3 °C, needs -5..3 °C"]
        ),
        (
            "usable, whole degrees", WeatherCase(testDescription: "", condition: .clear, temperature: 12),
            [.weather: "clear, needs snowy"], [.temperature: "it is 12 °C, needs -5..3 °C"]
        ),
        (
            "no temperature", WeatherCase(testDescription: "", condition: .cloudy, temperature: nil),
            [.weather: "cloudy, needs snowy"], [.temperature: "temperature unknown: the reading has no temperature"]
        ),
    ]

    @Test(arguments: explanations)
    func readExplainsTheWeather(
        _ name: String, _ testCase: WeatherCase?, _ a: [LockKind: String],
        _ b: [LockKind: String]
    ) {
        var engine = F.engine([F.stored(Self.message)])
        _ = engine.handle(.fix(F.fix(at: 1), F.now(1)))
        if let testCase { _ = engine.handle(.weatherFetched(Self.observation(testCase, now: 2), F.now(2))) }
        #expect(reasons(engine, Self.message.id, page: 1, set: .a, now: F.now(2)) == a)
        #expect(reasons(engine, Self.message.id, page: 1, set: .b, now: F.now(2)) == b)
    }

    @Test func weatherStatus() {
        var engine = F.engine([F.stored(Self.message)])
        #expect(engine.status(now: F.now()).weather == nil)
        _ = engine.handle(
            .weatherFetched(
                Self.observation(
                    WeatherCase(
                        testDescription: "", condition: .rainy,
                        temperature: 10, age: 90), now: 2), F.now(2)))
        let weather = engine.status(now: F.now(2)).weather
        #expect(weather?.condition == "rainy")
        #expect(weather?.temperatureC == 10)
        #expect(weather?.ageSeconds == 90)
        #expect(weather?.provider == "open-meteo")
    }

    @Test func theMaximumAgeIsAdjustable() {
        var engine = F.engine([F.stored(Self.message)])
        engine.weatherSchedule.maxAge = 5 * 60
        _ = engine.handle(.fix(F.fix(at: 1), F.now(1)))
        let effects = engine.handle(
            .weatherFetched(
                Self.observation(
                    WeatherCase(
                        testDescription: "", condition: .snowy,
                        temperature: 0, age: 6 * 60), now: 2),
                F.now(2)))
        #expect(effects.unlocks == [])
    }
}
