import ChestCore
import ChestIO
import Foundation

/// A `chest` command line, parsed. Parsing is pure: no files, no sockets.
enum Command: Equatable {
    case compose(ComposeDraft)
    case importFiles([String])
    case list(saved: Bool, json: Bool)
    case read(id: String, json: Bool)
    case pin(id: String, pin: String, page: Int?)
    case save(id: String)
    case delete(id: String)
    case status(json: Bool, watch: Bool)
    case watch(json: Bool, count: Int?, timeout: Double?)
    case config(ConfigAction)
    case help(String?)
    case version
}

enum ConfigAction: Equatable {
    case show
    case get(String)
    case set(String, String)
    case unset(String)
}

/// What `compose` was asked to write, before PINs are hashed and `here` is resolved.
struct ComposeDraft: Equatable {
    var output: String?
    var title: String?
    var from: String?
    var pages: [PageDraft] = []
}

struct PageDraft: Equatable {
    var text: String
    var setA: [LockSpec] = []
    var setB: [LockSpec] = []
    var inSetB = false
}

/// The global options that come before the command.
struct GlobalOptions: Equatable {
    var flags: [String: String] = [:]
    var configPath: String?
}

extension Command {
    /// Reads the arguments after the program name.
    static func parse(_ arguments: [String], timeZone: TimeZone = .current) throws(UsageError) -> (GlobalOptions, Command) {
        var rest = arguments[...]
        var global = GlobalOptions()
        while let first = rest.first, first.hasPrefix("-") {
            rest.removeFirst()
            switch first {
            case "--socket", "--chest", "--config":
                guard let value = rest.popFirst() else { throw UsageError("\(first) needs a value") }
                if first == "--config" { global.configPath = value } else { global.flags[String(first.dropFirst(2))] = value }
            case "-h", "--help": return (global, .help(nil))
            case "--version": return (global, .version)
            default: throw UsageError("unknown option \(first); see `chest --help`")
            }
        }
        guard let name = rest.popFirst() else { return (global, .help(nil)) }
        var arguments = Arguments(command: name, rest)
        let command: Command
        switch name {
        case "compose": command = try parseCompose(&arguments, timeZone: timeZone)
        case "import":
            let files = try arguments.positionals(atLeast: 1, "FILE…")
            command = .importFiles(files)
        case "list":
            let saved = arguments.flag("--saved"), json = arguments.flag("--json")
            try arguments.finish()
            command = .list(saved: saved, json: json)
        case "read":
            let json = arguments.flag("--json")
            command = .read(id: try arguments.single("ID"), json: json)
        case "pin":
            let page = try arguments.option("--page").map { text throws(UsageError) -> Int in
                guard let page = Int(text), (1...Message.maximumPages).contains(page) else {
                    throw UsageError("--page wants a page number from 1 to \(Message.maximumPages)")
                }
                return page
            }
            let values = try arguments.positionals(exactly: 2, "ID PIN")
            command = .pin(id: values[0], pin: values[1], page: page)
        case "save": command = .save(id: try arguments.single("ID"))
        case "delete": command = .delete(id: try arguments.single("ID"))
        case "status":
            let json = arguments.flag("--json"), watch = arguments.flag("--watch")
            try arguments.finish()
            command = .status(json: json, watch: watch)
        case "watch":
            let json = arguments.flag("--json")
            let count = try arguments.option("--count").map { text throws(UsageError) -> Int in
                guard let count = Int(text), count > 0 else { throw UsageError("--count wants a positive number") }
                return count
            }
            let timeout = try arguments.option("--timeout").map { text throws(UsageError) -> Double in
                guard let seconds = Double(text), seconds > 0 else { throw UsageError("--timeout wants seconds, such as 30") }
                return seconds
            }
            try arguments.finish()
            command = .watch(json: json, count: count, timeout: timeout)
        case "config":
            if let key = try arguments.option("--unset") {
                try arguments.finish()
                command = .config(.unset(try Self.knownKey(key)))
            } else {
                let values = try arguments.positionals(atMost: 2, "[KEY [VALUE]]")
                switch values.count {
                case 0: command = .config(.show)
                case 1: command = .config(.get(try Self.knownKey(values[0])))
                default: command = .config(.set(try Self.knownKey(values[0]), values[1]))
                }
            }
        case "help":
            command = .help(rest.first)
        default:
            throw UsageError("unknown command \"\(name)\"; the commands are compose, import, list, read, pin, save, delete, status, watch, config")
        }
        return (global, command)
    }

    private static func knownKey(_ key: String) throws(UsageError) -> String {
        guard Settings.known.contains(where: { $0.key == key }) else {
            throw UsageError("unknown setting \"\(key)\"; the settings are \(Settings.known.map(\.key).joined(separator: ", "))")
        }
        return key
    }

    private static func parseCompose(_ arguments: inout Arguments, timeZone: TimeZone) throws(UsageError) -> Command {
        var draft = ComposeDraft()
        while let argument = arguments.next() {
            switch argument {
            case "-o", "--output": draft.output = try arguments.value(for: argument)
            case "--title": draft.title = try arguments.value(for: argument)
            case "--from": draft.from = try arguments.value(for: argument)
            case "--page":
                guard draft.pages.count < Message.maximumPages else {
                    throw UsageError("a message has at most \(Message.maximumPages) pages")
                }
                draft.pages.append(PageDraft(text: try arguments.value(for: argument)))
            case "--lock":
                let value = try arguments.value(for: argument)
                guard !draft.pages.isEmpty else { throw UsageError("--lock \(value) comes before any --page; write --page TEXT first") }
                let spec: LockSpec
                do {
                    spec = try LockSpec.parse(value, timeZone: timeZone)
                } catch {
                    throw UsageError(error.description)
                }
                let index = draft.pages.count - 1
                if draft.pages[index].inSetB { draft.pages[index].setB.append(spec) } else { draft.pages[index].setA.append(spec) }
            case "--or":
                guard let index = draft.pages.indices.last else { throw UsageError("--or comes before any --page") }
                guard !draft.pages[index].inSetB else {
                    throw UsageError("page \(index + 1) already has its --or; a page has two lock sets, A and B")
                }
                guard !draft.pages[index].setA.isEmpty else {
                    throw UsageError("--or on page \(index + 1) follows no --lock; give set A a lock first")
                }
                draft.pages[index].inSetB = true
            default:
                throw UsageError("compose: unexpected \"\(argument)\"; page text goes after --page, locks after --lock")
            }
        }
        guard draft.output != nil else { throw UsageError("compose needs -o FILE, the message file to write") }
        guard let title = draft.title, !title.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw UsageError("compose needs --title TITLE")
        }
        guard !draft.pages.isEmpty else { throw UsageError("compose needs at least one --page TEXT") }
        for (index, page) in draft.pages.enumerated() {
            for (name, specs) in [("A", page.setA), ("B", page.setB)] {
                var kinds: Set<LockKind> = []
                for spec in specs where !kinds.insert(spec.kind).inserted {
                    throw UsageError("page \(index + 1) has two \(spec.kind.rawValue) locks in set \(name); use --or for an alternative")
                }
            }
        }
        return .compose(draft)
    }
}

extension LockSpec {
    var kind: LockKind {
        switch self {
        case let .lock(lock): lock.kind
        case .pin: .pin
        case .locationHere: .location
        case .altitudeHere: .altitude
        }
    }
}

/// A cursor over one command's arguments.
struct Arguments {
    let command: String
    private var rest: ArraySlice<String>

    init(command: String, _ rest: ArraySlice<String>) {
        self.command = command
        self.rest = rest
    }

    mutating func next() -> String? { rest.popFirst() }

    mutating func value(for option: String) throws(UsageError) -> String {
        guard let value = rest.popFirst() else { throw UsageError("\(option) needs a value") }
        return value
    }

    /// Removes `name` wherever it is; true if it was there.
    mutating func flag(_ name: String) -> Bool {
        guard let index = rest.firstIndex(of: name) else { return false }
        rest.remove(at: index)
        return true
    }

    /// Removes `name VALUE` wherever it is.
    mutating func option(_ name: String) throws(UsageError) -> String? {
        guard let index = rest.firstIndex(of: name) else { return nil }
        guard index + 1 < rest.endIndex else { throw UsageError("\(name) needs a value") }
        let value = rest[index + 1]
        rest.removeSubrange(index...(index + 1))
        return value
    }

    mutating func finish() throws(UsageError) {
        if let extra = rest.first { throw UsageError("\(command): unexpected \"\(extra)\"; see `chest help \(command)`") }
    }

    mutating func positionals(atLeast minimum: Int = 0, atMost maximum: Int = .max, exactly: Int? = nil,
                              _ shape: String) throws(UsageError) -> [String] {
        if let unknown = rest.first(where: { $0.hasPrefix("--") }) {
            throw UsageError("\(command): unknown option \(unknown); see `chest help \(command)`")
        }
        let values = Array(rest)
        rest = []
        let low = exactly ?? minimum, high = exactly ?? maximum
        guard values.count >= low, values.count <= high else { throw UsageError("usage: chest \(command) \(shape)") }
        return values
    }

    mutating func positionals(exactly count: Int, _ shape: String) throws(UsageError) -> [String] {
        try positionals(atLeast: count, atMost: count, shape)
    }

    mutating func single(_ shape: String) throws(UsageError) -> String {
        try positionals(exactly: 1, shape)[0]
    }
}
