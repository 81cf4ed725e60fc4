import ChestCore
import ChestTestSupport
import Foundation
import Testing

/// The weather helper's answer keeps its wire form as an enum: one object with `observation`, or with `error`,
/// `retryAfter` and `offline`, so a helper and a chestd of either side of the change understand each other.
@Suite struct WeatherFetchReplyTests {
    static let observation = WeatherObservation(
        condition: .snowy, temperatureC: -1, coordinate: Coordinate(latitude: 47.37, longitude: 8.54),
        observedAt: Date(timeIntervalSince1970: 1_800_000_000),
        fetchedAt: Date(timeIntervalSince1970: 1_800_000_060), provider: "open-meteo")

    @Test func eachCaseRoundTripsThroughItsWireForm() throws {
        for reply in [
            WeatherFetchReply.observed(Self.observation),
            .failed(reason: "OpenWeatherMap: too many requests", retryAfter: 120, offline: false),
            .failed(reason: "cannot reach api.open-meteo.com", retryAfter: nil, offline: true),
        ] {
            let data = try ChestJSON.encoder().encode(reply)
            #expect(try ChestJSON.decoder().decode(WeatherFetchReply.self, from: data) == reply)
        }
        let failed = try ChestJSON.encoder().encode(
            WeatherFetchReply.failed(reason: "x", retryAfter: 5, offline: false))
        #expect(try JSON(failed).keys == ["error", "retryAfter", "offline"])
    }

    @Test func theOldFieldsReadAsTheirCase() throws {
        let offline = Data(#"{"error":"cannot reach the provider","offline":true}"#.utf8)
        #expect(
            try ChestJSON.decoder().decode(WeatherFetchReply.self, from: offline)
                == .failed(reason: "cannot reach the provider", retryAfter: nil, offline: true))
        #expect(
            try ChestJSON.decoder().decode(WeatherFetchReply.self, from: Data("{}".utf8))
                == .failed(reason: "no reading", retryAfter: nil, offline: false))
    }
}
