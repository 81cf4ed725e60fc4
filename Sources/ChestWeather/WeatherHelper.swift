import ChestCore
import Foundation

/// `chest-weather`: reads one `WeatherFetchRequest` on standard input, asks the provider, writes one
/// `WeatherFetchReply` on standard output. chestd runs it with a deadline for each reading it needs.
public enum WeatherHelper {
    public static func main() async -> Int32 {
        let input = FileHandle.standardInput.readDataToEndOfFile()
        guard let request = try? ChestJSON.decoder().decode(WeatherFetchRequest.self, from: input) else {
            FileHandle.standardError.write(Data("chest-weather: expected one weather request as JSON on standard input (chestd runs this)\n".utf8))
            return 64
        }
        let reply = await fetch(request)
        FileHandle.standardOutput.write(ChestJSON.line(reply) + Data("\n".utf8))
        return 0
    }

    /// Asks the request's provider for the weather at its coordinate.
    public static func fetch(_ request: WeatherFetchRequest) async -> WeatherFetchReply {
        let url = request.baseURL.flatMap(URL.init(string:))
        let provider: any WeatherProvider = switch (request.provider, request.key) {
        case let (OpenWeatherMapProvider.providerName, key?):
            OpenWeatherMapProvider(key: key, baseURL: url ?? OpenWeatherMapProvider.defaultBaseURL)
        default:
            OpenMeteoProvider(baseURL: url ?? OpenMeteoProvider.defaultBaseURL)
        }
        do throws(WeatherError) {
            return .observed(try await provider.fetch(at: request.coordinate, now: Date()))
        } catch {
            return .failed(reason: error.description, retryAfter: error.retryAfter, offline: error.isOffline)
        }
    }
}
