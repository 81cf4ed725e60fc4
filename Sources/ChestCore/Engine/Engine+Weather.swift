import struct FoundationEssentials.Date

extension Engine {
    /// The reading that speaks for the reader's current position, or why there is none (docs/DESIGN.md "Lock rules").
    package func weatherReading(now: Now) -> WeatherReading {
        guard let position = currentPosition(now) else { return .unknown(weather == nil ? .missing : .noPosition) }
        return weatherSchedule.reading(
            of: weather, at: position, now: now.wall, offlineSince: weatherHistory.offlineSince)
    }

    /// The weather and temperature locks that hold on the current reading, latched.
    mutating func latchWeather(_ now: Now) -> [Effect] {
        let reading = weatherReading(now: now)
        return latch(weathers.filter { weatherHolds($0, reading) }, now: now)
    }

    /// Whether a weather or temperature lock holds on this reading.
    func weatherHolds(_ ref: LockRef, _ reading: WeatherReading) -> Bool {
        switch entries[ref.id]?.message.lock(ref.key) {
        case let .weather(condition): LockRule.weather(condition, reading) == nil
        case let .temperature(bounds): LockRule.temperature(bounds, reading) == nil
        default: false
        }
    }

    /// Whether any weather or temperature lock is still waiting: weather is fetched only then (docs/DESIGN.md "Reliability and security").
    package var needsWeather: Bool { !weathers.isEmpty }

    /// Where the reader is: the position of a fresh 2D or 3D fix.
    func currentPosition(_ now: Now) -> Coordinate? {
        guard let fix = lastFix, fix.isFresh(at: now.monotonic, life: cadence.maximumGap) else { return nil }
        return fix.position
    }

    mutating func weatherArrived(_ observation: WeatherObservation, now: Now) -> [Effect] {
        weather = observation
        weatherHistory.succeeded(at: now.wall)
        weatherProblem = nil
        return [.emit(.weather(WeatherSummary(observation)))] + latchWeather(now) + planWeather(now)
    }

    /// Asks for weather when a lock waits for it and the schedule says so; aims the next check.
    mutating func planWeather(_ now: Now) -> [Effect] {
        let plan = weatherSchedule.plan(
            pending: needsWeather, position: currentPosition(now), cached: weather,
            history: weatherHistory, now: now.wall)
        var effects: [Effect] = []
        if let coordinate = plan.fetch {
            weatherHistory.started(at: now.wall)
            effects.append(.fetchWeather(coordinate))
        }
        if scheduledWeatherCheck != .some(plan.nextCheck) {
            scheduledWeatherCheck = .some(plan.nextCheck)
            effects.append(.weatherCheck(at: plan.nextCheck))
        }
        return effects
    }
}
