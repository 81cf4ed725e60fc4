import Foundation
import Testing

@testable import ChestCore

private typealias F = CoreFixture

private let hash1 = "$argon2id$v=19$m=65536,t=2,p=1$one$one"
private let hash2 = "$argon2id$v=19$m=65536,t=2,p=1$two$two"
// Senders

@Suite struct EngineSentByYouTests {
    @Test func aSenderNeverOpensTheirOwnMessage() {
        let message = F.message(pages: [
            Page(text: "where", setA: [.location(center: F.tower, radius: 30)]),
            Page(text: "free"),
            Page(text: "when", setA: [.time(F.t0.addingTimeInterval(-10))], setB: [.pin(hash: hash1)]),
            Page(text: "weather", setA: [.weather(.clear)], setB: [.altitude(Bounds(min: 0, max: 200))]),
        ])
        var engine = F.engine([])
        var effects = engine.ingest([F.stored(message, sentByYou: true)], F.now())
        for second in 1...5 { effects += engine.handle(.fix(F.fix(at: Double(second)), F.now(Double(second)))) }
        effects += engine.handle(.tick(F.now(100)))
        effects += engine.handle(
            .weatherFetched(
                WeatherObservation(
                    condition: .clear, temperatureC: 20, coordinate: F.tower,
                    observedAt: F.t0.addingTimeInterval(90),
                    fetchedAt: F.t0.addingTimeInterval(95),
                    provider: "open-meteo"), F.now(100)))
        #expect(effects.unlocks == [])
        #expect(engine.entries[message.id]?.state.openPageNumbers == [2])
        #expect(engine.entries[message.id]?.state.latched == [:])
        #expect(!engine.needsWeather)
        #expect(
            engine.handle(.pin(message.id, page: nil, pin: "1234", F.now(101))).pinResults
                == [.failed("you sent this message: its locks stay shut for you")])
        let report = engine.read(message.id, now: F.now(101))
        #expect(report?.sentByYou == true)
        #expect(report?.pages.map(\.open) == [false, true, false, false])
        let texts = Set(
            report!.pages.flatMap { $0.sets.flatMap { $0.locks.map { $0.reason?.text(timeZone: F.utc, now: F.t0) } } })
        #expect(texts == ["you sent this message"])
    }
}
