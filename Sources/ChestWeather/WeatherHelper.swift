import ChestCore
import FoundationEssentials
import Glibc

/// `chest-weather`: reads one `WeatherFetchRequest` on standard input, asks the provider, writes one
/// `WeatherFetchReply` on standard output. chestd runs it with a deadline for each reading it needs.
package enum WeatherHelper {
    package static func main() async -> Int32 {
        let input = readStandardInput()
        guard let request = try? ChestJSON.decoder().decode(WeatherFetchRequest.self, from: input) else {
            write(
                "chest-weather: expected one weather request as JSON on standard input (chestd runs this)\n".utf8,
                to: STDERR_FILENO)
            return 64
        }
        let reply = await fetch(request)
        write(ChestJSON.line(reply) + Data("\n".utf8), to: STDOUT_FILENO)
        return 0
    }

    /// Everything on standard input up to its end (or a read error).
    private static func readStandardInput() -> Data {
        var input = Data()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count > 0 {
                input.append(contentsOf: buffer[..<count])
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return input
            }
        }
    }

    /// All of `bytes` to `descriptor`, as far as it takes them.
    private static func write(_ bytes: some Sequence<UInt8>, to descriptor: Int32) {
        let bytes = Array(bytes)
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                offset += count
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
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
