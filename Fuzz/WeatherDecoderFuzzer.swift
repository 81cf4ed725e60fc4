import Foundation

/// libFuzzer entry point for the weather providers' reply decoders: the bytes are a 200 body given to
/// `OpenMeteoProvider.parse` and to `OpenWeatherMapProvider.parse`, which must return an observation or throw a
/// `WeatherError`, never crash (docs/RELIABILITY.md "Fuzzing"). Built by scripts/fuzz.sh with ChestCore's and
/// ChestWeather's sources as one module, outside the package, so `swift build` and `make test` never see it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWeatherDecoders(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let coordinate = Coordinate(latitude: 48.85, longitude: 2.29)
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    do throws(WeatherError) {
        let observation = try OpenMeteoProvider.parse(data, coordinate: coordinate, fetchedAt: now)
        _ = ChestJSON.line(observation)
    } catch {
        _ = error.description
    }
    do throws(WeatherError) {
        let observation = try OpenWeatherMapProvider.parse(data, coordinate: coordinate, fetchedAt: now)
        _ = ChestJSON.line(observation)
    } catch {
        _ = error.description
    }
    return 0
}
