import ChestArguments
import ChestCore
import ChestIO
import Foundation
import Glibc

/// `chest watch [--json] [--count N] [--timeout S]`
struct WatchCommand: ChestCommand {
    static let name = "watch"
    static let abstract = "stream events as they happen"
    static let discussion = """
        Prints events as they happen (unlocked, ingested, rejected, gpsd, fix, weather...); stops after N events \
        or S seconds.
        """
    static let parameters: [Parameter] = [
        .json,
        .option("--count", value: "N", help: "stop after N events"),
        .option("--timeout", value: "S", help: "stop after S seconds"),
    ]

    var json: Bool
    var count: Int?
    var timeout: Double?

    init(_ values: ParsedValues) throws(UsageError) {
        json = values.flag("--json")
        count = try values.value("--count", "--count wants a positive number") { Int($0).flatMap { $0 > 0 ? $0 : nil } }
        timeout = try values.value("--timeout", "--timeout wants seconds, such as 30") {
            Double($0).flatMap { $0 > 0 ? $0 : nil }
        }
    }

    func run(settings: Settings) throws {
        let client = try CLI.client(settings)
        try client.send(ControlRequest(op: .watch))
        let deadline = timeout.map { MonotonicClock.now() + $0 }
        guard let first = try client.nextLine(timeout: 10) else { throw ChestError("chestd closed the connection") }
        _ = try ControlClient.decode(first, as: Empty.self)
        var seen = 0
        while count.map({ seen < $0 }) ?? true {
            let left = deadline.map { $0 - MonotonicClock.now() }
            if let left, left <= 0 { return }
            let result = Result { () throws(ControlClientError) -> Data? in try client.nextLine(timeout: left) }
            if case .failure = result, deadline != nil { return }
            guard let line = try result.get() else { throw ChestError("chestd stopped") }
            if json {
                print(String(decoding: line, as: UTF8.self))
            } else if let event = try? ChestJSON.decoder().decode(ChestEvent.self, from: line) {
                print(Output.event(event))
            }
            fflush(nil)
            seen += 1
        }
    }
}
