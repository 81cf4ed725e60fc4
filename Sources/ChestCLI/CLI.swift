import ChestCore
import ChestIO
import Foundation
import Glibc

/// `chest`: parses the command line, runs the command, and maps the outcome to an exit status
/// (0 success, 1 failure with one `chest: …` line on stderr, 64 a usage error).
public enum CLI {
    public static func main(_ arguments: [String]) -> Int32 {
        let global: GlobalOptions, command: Command
        do {
            (global, command) = try Command.parse(arguments)
        } catch {
            printError("chest: \(error)")
            return UsageError.exitStatus
        }
        do {
            let settings = try Settings(configPath: global.configPath, flags: global.flags)
            try run(command, settings: settings)
            return 0
        } catch let error as UsageError {
            printError("chest: \(error)")
            return UsageError.exitStatus
        } catch let error as ImportFailures {
            if error.of > 1 { printError("chest: \(error)") }
            return 1
        } catch {
            printError("chest: \(error)")
            return 1
        }
    }

    static func run(_ command: Command, settings: Settings) throws {
        switch command {
        case let .help(topic): print(Usage.help(for: topic))
        case .version: print("chest \(ChestVersion.string)")
        case let .compose(draft): try Composer(settings: settings).compose(draft)
        case let .importFiles(files): try importFiles(files, settings: settings)
        case let .list(saved, json):
            let items = try client(settings).call(ControlRequest(op: .list, saved: saved), expecting: [ListItem].self)
            print(json ? jsonText(items) : Output.list(items, saved: saved))
        case let .read(id, json):
            let report = try client(settings).call(ControlRequest(op: .read, id: id), expecting: ReadReport.self)
            print(json ? jsonText(Output.ReadJSON(report)) : Output.read(report))
        case let .pin(id, pin, page):
            let outcome = try client(settings).call(ControlRequest(op: .pin, id: id, pin: pin, page: page),
                                                    expecting: PINOutcome.self)
            print(outcome.text)
        case let .save(id):
            let result = try client(settings).call(ControlRequest(op: .save, id: id), expecting: ImportResult.self)
            print("saved \(result.id) \"\(result.title)\"")
        case let .delete(id):
            let result = try client(settings).call(ControlRequest(op: .delete, id: id), expecting: ImportResult.self)
            print("deleted \(result.id) \"\(result.title)\"")
        case let .status(json, watch):
            try StatusCommand(settings: settings, json: json).run(watch: watch)
        case let .watch(json, count, timeout):
            try watchEvents(settings: settings, json: json, count: count, timeout: timeout)
        case let .config(action):
            try ConfigCommand(settings: settings).run(action)
        }
    }

    static func client(_ settings: Settings) throws -> ControlClient {
        try ControlClient(socketPath: settings.socketPath)
    }

    /// Imports each file in turn; refusals are reported and make the exit status 1, the rest still go in.
    static func importFiles(_ files: [String], settings: Settings) throws {
        var failures = 0
        let directory = FileManager.default.currentDirectoryPath
        for file in files {
            let path = file.hasPrefix("/") ? file : directory + "/" + file
            do {
                let result = try client(settings).call(ControlRequest(op: .import, path: path), expecting: ImportResult.self)
                print(result.id)
            } catch ControlClientError.notRunning(let socket) {
                throw ControlClientError.notRunning(socket: socket)
            } catch {
                failures += 1
                printError("chest: \(file): \(error)")
            }
        }
        // One file refused has said why already; the exit status is enough.
        if failures > 0 { throw ImportFailures(count: failures, of: files.count) }
    }

    static func watchEvents(settings: Settings, json: Bool, count: Int?, timeout: Double?) throws {
        let client = try client(settings)
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

    static func jsonText<T: Encodable>(_ value: T) -> String {
        String(decoding: (try? ChestJSON.encoder(pretty: true).encode(value)) ?? Data(), as: UTF8.self)
    }
}

/// Some files of an `import` were refused; each already said why on stderr.
struct ImportFailures: Error, CustomStringConvertible {
    var count: Int
    var of: Int

    var description: String { "\(count) of \(of) files refused" }
}

func printError(_ text: String) {
    var bytes = Array((text + "\n").utf8)
    _ = write(2, &bytes, bytes.count)
}
