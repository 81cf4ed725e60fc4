import ChestCore
import ChestIO
import FoundationEssentials
import Glibc

/// `chest-weather`: reads one `WeatherFetchRequest` on standard input, asks the provider, writes one
/// `WeatherFetchReply` on standard output. chestd runs it with a deadline for each reading it needs.
package enum WeatherHelper {
    package static func main() async -> Int32 {
        let input = readStandardInput()
        guard let request = try? ChestJSON.decoder().decode(WeatherFetchRequest.self, from: input) else {
            printError("chest-weather: expected one weather request as JSON on standard input (chestd runs this)")
            return 64
        }
        let reply = await fetch(request)
        // A chestd that stopped waiting has closed the pipe: nothing is left to tell.
        try? FileDescriptor(rawValue: STDOUT_FILENO).writeAll(ChestJSON.line(reply) + Data("\n".utf8))
        return 0
    }

    /// Everything on standard input up to its end (or a read error).
    private static func readStandardInput() -> Data {
        let standardInput = FileDescriptor(rawValue: STDIN_FILENO)
        var input = Data()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while let count = try? standardInput.read(into: &buffer), count > 0 {
            input.append(contentsOf: buffer[..<count])
        }
        return input
    }

    /// Asks the request's provider for the weather at its coordinate.
    package static func fetch(_ request: WeatherFetchRequest) async -> WeatherFetchReply {
        let url = request.baseURL.flatMap(URL.init(string:))
        let provider: any WeatherProvider =
            switch (request.provider, request.key) {
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
