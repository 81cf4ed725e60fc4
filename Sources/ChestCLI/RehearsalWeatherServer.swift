import ChestCore
import ChestIO
import ChestSimulator
import FoundationEssentials
import Glibc
import Synchronization

/// `simulate --gpsd --weather`: a weather provider on loopback for the private chestd, answering every request
/// the way Open-Meteo does (docs/WEATHER.md) with the rehearsal's weather, observed at the moment it is asked.
/// Nothing leaves the machine.
final class RehearsalWeatherServer: @unchecked Sendable {
    let port: Int
    private let listener: FileDescriptor
    private let body: @Sendable () -> String
    private let isStopped = Mutex(false)

    /// The WMO code Open-Meteo would give for each condition.
    static func wmoCode(_ condition: WeatherCondition) -> Int {
        switch condition {
        case .clear: 0
        case .cloudy: 3
        case .rainy: 61
        case .snowy: 71
        case .thundery: 95
        }
    }

    init(_ weather: Simulation.Weather) throws {
        let code = weather.condition.map(Self.wmoCode)
        let temperature = weather.temperatureC
        body = {
            var current = [#""time": \#(Int(Date().timeIntervalSince1970))"#, #""interval": 900"#]
            if let code { current.append(#""weather_code": \#(code)"#) }
            if let temperature { current.append(#""temperature_2m": \#(temperature)"#) }
            return #"{"current_units": {"temperature_2m": "°C"}, "current": {\#(current.joined(separator: ", "))}}"#
        }
        do {
            (listener, port) = try LoopbackSocket.bound(listening: 8)
        } catch {
            throw ChestError("cannot listen on loopback for the rehearsal's weather: \(error)")
        }
        OSThread.start(name: "chest-weather-rehearsal") { [self] in serve() }
    }

    /// The base URL for chestd's `--weather-url`.
    var url: String { "http://127.0.0.1:\(port)" }

    func stop() {
        isStopped.withLock { $0 = true }
    }

    deinit { listener.close() }

    /// One request at a time: the private chestd asks once in a while.
    private func serve() {
        while !isStopped.withLock({ $0 }) {
            var poller = pollfd(fd: listener.rawValue, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 200) > 0 else { continue }
            guard let client = try? listener.accept() else { continue }
            client.closeAfter { answer(client) }
        }
    }

    private func answer(_ client: FileDescriptor) {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(client.rawValue, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var request = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !request.suffix(4).elementsEqual([13, 10, 13, 10]) && request.count < 65_536 {
            guard let count = try? client.read(into: &buffer), count > 0 else { return }
            request += buffer[..<count]
        }
        let text = body()
        let reply =
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(text.utf8.count)\r\n"
            + "Connection: close\r\n\r\n" + text
        try? client.sendAll(Array(reply.utf8))
    }
}
