import ChestIO
import Foundation
import Testing

@testable import ChestCore

private let paris = Zone(identifier: "Europe/Paris")!
private let tokyo = Zone(identifier: "Asia/Tokyo")!

private func instant(_ text: String) -> Date { ISO8601.parse(text)! }

@Suite struct LockSpecTests {
    static let valid: [(String, Zone, LockSpec)] = [
        (
            "location=48.85837,2.29448/30m", paris,
            .lock(.location(center: Coordinate(latitude: 48.85837, longitude: 2.29448), radius: 30))
        ),
        (
            "location=48.85837,2.29448/30", paris,
            .lock(.location(center: Coordinate(latitude: 48.85837, longitude: 2.29448), radius: 30))
        ),
        (
            "location=-33.8568, 151.2153/1.5km", paris,
            .lock(.location(center: Coordinate(latitude: -33.8568, longitude: 151.2153), radius: 1500))
        ),
        ("location=0,-180/10M", paris, .lock(.location(center: Coordinate(latitude: 0, longitude: -180), radius: 10))),
        (
            "location=90,180/2KM", paris,
            .lock(.location(center: Coordinate(latitude: 90, longitude: 180), radius: 2000))
        ),
        ("location=here/30m", paris, .locationHere(radius: 30)),
        ("location=HERE/0.5km", paris, .locationHere(radius: 500)),
        ("LOCATION=here/10m", paris, .locationHere(radius: 10)),
        ("time=2026-12-24T18:00:00+01:00", tokyo, .lock(.time(instant("2026-12-24T17:00:00Z")))),
        ("time=2026-12-01T09:00:00Z", tokyo, .lock(.time(instant("2026-12-01T09:00:00Z")))),
        (
            "time=2026-12-01T09:00:00.250Z", tokyo,
            .lock(.time(instant("2026-12-01T09:00:00Z").addingTimeInterval(0.25)))
        ),
        ("time=2026-12-24T18:00:00", paris, .lock(.time(instant("2026-12-24T17:00:00Z")))),
        ("time=2026-12-24T18:00:00", tokyo, .lock(.time(instant("2026-12-24T09:00:00Z")))),
        ("time=2026-07-14 22:30", paris, .lock(.time(instant("2026-07-14T20:30:00Z")))),
        ("time=2026-12-24", CoreFixture.utc, .lock(.time(instant("2026-12-24T00:00:00Z")))),
        ("pin=4821", paris, .pin(digits: "4821")),
        ("pin=0000", paris, .pin(digits: "0000")),
        ("weather=snowy", paris, .lock(.weather(.snowy))),
        ("weather=Clear", paris, .lock(.weather(.clear))),
        ("weather=cloudy", paris, .lock(.weather(.cloudy))),
        ("weather=rainy", paris, .lock(.weather(.rainy))),
        ("weather=thundery", paris, .lock(.weather(.thundery))),
        ("temperature=-5..3", paris, .lock(.temperature(Bounds(min: -5, max: 3)))),
        ("temperature=-10..-2.5", paris, .lock(.temperature(Bounds(min: -10, max: -2.5)))),
        ("temperature=20..20", paris, .lock(.temperature(Bounds(min: 20, max: 20)))),
        ("altitude=1200..1300", paris, .lock(.altitude(Bounds(min: 1200, max: 1300)))),
        ("altitude=-400..-380", paris, .lock(.altitude(Bounds(min: -400, max: -380)))),
        ("altitude=here±20", paris, .altitudeHere(margin: 20)),
        ("altitude=here+-20", paris, .altitudeHere(margin: 20)),
        ("altitude=here+/-15m", paris, .altitudeHere(margin: 15)),
        ("altitude=HERE±12.5", paris, .altitudeHere(margin: 12.5)),
    ]

    @Test(arguments: valid)
    func parses(_ text: String, _ zone: Zone, _ expected: LockSpec) throws {
        #expect(try LockSpec.parse(text, timeZone: zone) == expected)
    }

    static let invalid: [(String, String)] = [
        (
            "location=48.85837,2.29448/5m",
            "a radius under 10 m cannot be trusted with a consumer GPS; use 10m or more"
        ),
        ("location=here/9m", "use 10m or more"),
        ("location=48.85837,2.29448/0.005km", "use 10m or more"),
        ("location=91,0/30m", "latitude 91.0 is outside -90..90"),
        ("location=0,-181/30m", "longitude -181.0 is outside -180..180"),
        ("location=48.85837,2.29448", "write LAT,LON/RADIUS, such as 48.85837,2.29448/30m"),
        ("location=48.85837/30m", "write LAT,LON/RADIUS in decimal degrees, such as 48.85837,2.29448/30m"),
        ("location=north,east/30m", "write LAT,LON/RADIUS in decimal degrees"),
        ("location=48.85837,2.29448/thirty", #"the radius "thirty" is not a distance; write 30m or 1.5km"#),
        ("location=48.85837,2.29448/30ft", "write 30m or 1.5km"),
        ("time=tomorrow", "not an ISO 8601 time; write it like 2026-12-24T18:00:00+01:00"),
        ("time=24/12/2026 18:00", "not an ISO 8601 time"),
        ("time=", "not an ISO 8601 time"),
        ("pin=1234567890123", "a PIN is 4 to 12 digits, such as pin=4821"),
        ("pin=123", "a PIN is 4 to 12 digits"),
        ("pin=12a4", "a PIN is 4 to 12 digits"),
        ("pin=１２３４", "a PIN is 4 to 12 digits"),
        ("weather=foggy", "unknown weather; use clear, cloudy, rainy, snowy or thundery"),
        ("weather=", "unknown weather; use clear, cloudy, rainy, snowy or thundery"),
        ("temperature=3..-5", "the range is reversed; write the smaller number first"),
        ("temperature=cold", "write MIN..MAX in °C, such as -5..3"),
        ("temperature=-5", "write MIN..MAX in °C, such as -5..3"),
        ("temperature=-5..3..4", "write MIN..MAX in °C, such as -5..3"),
        ("altitude=1300..1200", "the range is reversed; write the smaller number first"),
        ("altitude=high", "write MIN..MAX in m, such as 1200..1300"),
        ("altitude=here±", "write here±METRES, such as altitude=here±20"),
        ("altitude=here±-5", "write here±METRES, such as altitude=here±20"),
        ("altitude=here+-lots", "write here±METRES, such as altitude=here±20"),
        (
            "altitude=-400..-390",
            "an altitude range under 20 m cannot be trusted with a consumer GPS; make it 20 m wide or more (here±10)"
        ),
        (
            "altitude=here±7.5",
            "an altitude range under 20 m cannot be trusted with a consumer GPS; make it 20 m wide or more (here±10)"
        ),
        (
            "colour=red",
            #"unknown lock type "colour"; use location, time, pin, weather, temperature, altitude, after, release or answer"#
        ),
        ("pin4821", "expected TYPE=VALUE, such as pin=4821"),
    ]

    @Test(arguments: invalid)
    func refuses(_ text: String, _ advice: String) throws {
        let error = try #require(throws: LockSpecError.self) { try LockSpec.parse(text, timeZone: paris) }
        #expect(error.spec == text)
        #expect(error.problem.contains(advice), "\(error.problem)")
        #expect(error.description.hasPrefix("--lock \(text): "))
    }

    @Test func errorDescriptionNamesTheSpecAndTheFix() throws {
        let error = try #require(throws: LockSpecError.self) { try LockSpec.parse("pin=123", timeZone: paris) }
        #expect(error.description == "--lock pin=123: a PIN is 4 to 12 digits, such as pin=4821")
    }

    @Test func formsListEveryLockType() {
        for kind in LockKind.allCases { #expect(LockSpec.forms.contains("\(kind.rawValue)=")) }
    }
}
