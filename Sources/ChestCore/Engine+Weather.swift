import struct Foundation.Date

extension Engine {
    /// The reading that speaks for the reader's last known position now, or why there is none (SPEC §4).
    public func weatherReading(now: Now) -> WeatherReading {
        guard let position = lastPosition else {
            return .unknown(weather == nil ? .missing : .far(distance: .infinity))
        }
        return weatherSchedule.reading(of: weather, at: position, now: now.wall, offlineSince: weatherHistory.offlineSince)
    }

    /// Whether a weather or temperature lock holds on the current reading.
    func weatherHolds(_ ref: LockRef, now: Now) -> Bool {
        guard let observation = weatherReading(now: now).observation,
              let lock = entries[ref.id]?.message.lock(ref.key) else { return false }
        switch lock {
        case let .weather(condition): return observation.condition == condition
        case let .temperature(bounds): return observation.temperatureC.map(bounds.contains) ?? false
        default: return false
        }
    }

    /// Whether any weather or temperature lock is still waiting: weather is fetched only then (SPEC §5).
    public var needsWeather: Bool { !weathers.isEmpty }

    /// The last position of a 2D or 3D fix, however old: weather is about a kilometre, not a few metres.
    var lastPosition: Coordinate? { lastQualifiedPosition }

    mutating func weatherArrived(_ observation: WeatherObservation, now: Now) -> [Effect] {
        weather = observation
        weatherHistory.succeeded(at: now.wall)
        weatherProblem = nil
        var event = ChestEvent(event: "weather")
        event.condition = observation.condition?.rawValue
        event.temperatureC = observation.temperatureC
        event.at = observation.observedAt
        event.latitude = observation.coordinate.latitude
        event.longitude = observation.coordinate.longitude
        return [.emit(event)] + latch(weathers.filter { weatherHolds($0, now: now) }, now: now) + planWeather(now)
    }

    /// Asks for weather when a lock waits for it and the schedule says so; aims the next check.
    mutating func planWeather(_ now: Now) -> [Effect] {
        let plan = weatherSchedule.plan(pending: needsWeather, position: lastPosition, cached: weather,
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
