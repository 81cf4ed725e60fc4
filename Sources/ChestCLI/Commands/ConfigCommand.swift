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
        .positional(
            "KEY", arity: .optional, help: "a setting", completion: .words(SettingKey.allCases.map(\.rawValue))),
        .positional("VALUE", arity: .optional, help: "its new value"),
        .option(
            "--unset", value: "KEY", help: "remove a setting", completion: .words(SettingKey.allCases.map(\.rawValue))),
    ]
    static let discussion = """
        Without arguments, every setting with its value and where it comes from (command line, environment, \
        config file or default), the settings file and the identity. While chestd runs, these are the values \
        chestd itself runs with, asked over its control socket (its command line and environment may not be this \
        shell's), followed by any this shell would use differently; weather.key shows only (set). With KEY, one \
        setting; with KEY VALUE, sets it. Settings live in $XDG_CONFIG_HOME/chest/config.json.

        A new value is checked first (notify is true or false, gpsd HOST:PORT, weather.maxAgeMinutes 1 to 1440, \
        hook.timeoutSeconds 0.1 to 3600, weather.url an http(s) URL), and a running chestd is asked to reload, as \
        SIGHUP does; chest, socket and gpsd take effect when chestd restarts. A value edited by hand into the file \
        that chestd cannot use stops chestd with the rule and the command that fixes it; chest warns and uses the \
        default. A key chest does not know (a typo) is ignored, and named here.

        settings:
        """ + "\n" + SettingKey.allCases.map { "  \(Output.pad($0.rawValue, 22)) \($0.help)" }.joined(separator: "\n")

    var action: ConfigAction

    init(_ values: ParsedValues) throws(UsageError) {
        let key = values.positional("KEY").first
        let value = values.positional("VALUE").first
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
            show(settings)
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

    /// Every setting: chestd's own while it runs, else this shell's; then the identity.
    private func show(_ settings: Settings) {
        let local = settings.effective
        let shown: EffectiveSettings
        do {
            shown = try CLI.client(settings).call(ControlRequest.config, expecting: EffectiveSettings.self)
            print("chestd is running with these settings (settings file \(shown.configPath)):")
        } catch ControlClientError.notRunning {
            shown = local
            print("chestd is not running; the settings it would start with (settings file \(local.configPath)):")
        } catch {
            shown = local
            print("chestd did not tell its settings (\(error)); this shell's (settings file \(local.configPath)):")
        }
        let width = max(30, shown.settings.map(\.value.count).max() ?? 0)
        for setting in shown.settings {
            print("  \(Output.pad(setting.key, 22)) \(Output.pad(setting.value, width)) \(setting.origin)")
        }
        let differences = local.settings.filter { $0.value != shown[$0.key]?.value }
        if !differences.isEmpty {
            print("this shell's own settings differ (chestd keeps its command line and environment until it restarts):")
            for setting in differences {
                print("  \(Output.pad(setting.key, 22)) \(Output.pad(setting.value, width)) \(setting.origin)")
            }
        }
        for problem in settings.invalid { print("not used: \(problem)") }
        if !settings.unknownKeys.isEmpty {
            print("ignored (unknown to this chest): \(settings.unknownKeys.joined(separator: ", "))")
        }
        do {
            if let identity = try Identity.load(at: settings.identityPath) {
                print("identity: \(settings.identityPath) (public key \(identity.publicKeyBase64))")
            } else {
                print("identity: none yet; the first compose makes one at \(settings.identityPath)")
            }
        } catch {
            print("identity: \(settings.identityPath) cannot be read: \(error)")
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
