import ChestArguments
import ChestCore
import ChestIO
import ChestSeal

/// `chest config`: shows and changes the settings file, and shows the identity.
struct ConfigCommand: ChestCommand {
    static let name = "config"
    static let abstract = "show or change settings"
    static let synopses = ["[KEY [VALUE]]", "--unset KEY"]
    static let parameters: [Parameter] = [
        .positional("KEY", arity: .optional, help: "a setting", completion: .words(SettingKey.allCases.map(\.rawValue))),
        .positional("VALUE", arity: .optional, help: "its new value"),
        .option("--unset", value: "KEY", help: "remove a setting", completion: .words(SettingKey.allCases.map(\.rawValue))),
    ]
    static let discussion = """
        Without arguments, every setting with its value and where it comes from (flag, environment, file or \
        default), the settings file and the identity. A new value is checked first, and a running chestd is \
        asked to reload.

        settings:
        """ + "\n" + SettingKey.allCases.map { "  \(Output.pad($0.rawValue, 22)) \($0.help)" }.joined(separator: "\n")

    var action: ConfigAction

    init(_ values: ParsedValues) throws(UsageError) {
        let key = values.positional("KEY").first, value = values.positional("VALUE").first
        if let unset = values.value("--unset") {
            if let extra = key { throw UsageError("config: unexpected \"\(extra)\" after --unset \(unset)") }
            action = .unset(try Self.knownKey(unset))
        } else if let key, let value {
            let known = try Self.knownKey(key)
            if let problem = known.problem(value) {
                throw UsageError("config: \(problem), not \"\(value)\"")
            }
            action = .set(known, value)
        } else if let key {
            action = .get(try Self.knownKey(key))
        } else {
            action = .show
        }
    }

    private static func knownKey(_ key: String) throws(UsageError) -> SettingKey {
        do {
            return try SettingKey.named(key)
        } catch {
            throw UsageError(error.description)
        }
    }

    func run(settings: Settings) throws {
        switch action {
        case .show:
            print("settings file: \(settings.configPath)")
            for key in SettingKey.allCases {
                print("\(Output.pad(key.rawValue, 22)) \(Output.pad(settings.effectiveValue(key), 30)) \(settings.origin(of: key))")
            }
            for problem in settings.invalid { print("not used: \(problem)") }
            if !settings.unknownKeys.isEmpty {
                print("ignored (unknown to this chest): \(settings.unknownKeys.joined(separator: ", "))")
            }
            if let identity = try Identity.load(at: settings.identityPath) {
                print("identity: \(settings.identityPath) (public key \(identity.publicKeyBase64))")
            } else {
                print("identity: none yet; the first compose makes one at \(settings.identityPath)")
            }
        case let .get(key):
            guard let value = settings.values[key] else { throw ChestError("\(key.rawValue) is not set") }
            print(value)
        case let .set(key, value):
            try Settings.store(key, value, at: settings.configPath)
            print("\(key.rawValue) set; \(Self.reload(settings))")
        case let .unset(key):
            try Settings.store(key, nil, at: settings.configPath)
            print("\(key.rawValue) unset; \(Self.reload(settings))")
        }
    }

    /// Asks a running chestd to read the settings again, and says what came of it.
    static func reload(_ settings: Settings) -> String {
        do {
            let notes = try CLI.client(settings).call(ControlRequest.reload, expecting: [String].self)
            return (["chestd reloaded its settings"] + notes).joined(separator: "; ")
        } catch ControlClientError.notRunning {
            return "chestd is not running; it reads the settings when it starts"
        } catch {
            return "chestd did not reload: \(error)"
        }
    }
}

enum ConfigAction: Equatable {
    case show
    case get(SettingKey)
    case set(SettingKey, String)
    case unset(SettingKey)
}
