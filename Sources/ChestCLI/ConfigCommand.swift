import ChestCore
import ChestIO
import ChestSeal

/// `chest config`: shows and changes the settings file, and shows the identity.
struct ConfigCommand {
    let settings: Settings

    func run(_ action: ConfigAction) throws {
        switch action {
        case .show:
            print("settings file: \(settings.configPath)")
            for (key, _) in Settings.known {
                let value = settings.values[key].map { key == "weather.key" ? "(set)" : $0 } ?? "(default)"
                print("\(key.padding(toLength: 22, withPad: " ", startingAt: 0)) \(value)")
            }
            if let identity = try Identity.load(at: settings.identityPath) {
                print("identity: \(settings.identityPath) (public key \(identity.publicKeyBase64))")
            } else {
                print("identity: none yet; the first compose makes one at \(settings.identityPath)")
            }
        case let .get(key):
            guard let value = settings.values[key] else { throw ChestError("\(key) is not set") }
            print(value)
        case let .set(key, value):
            try Settings.store(key, value, at: settings.configPath)
            print("\(key) set")
        case let .unset(key):
            try Settings.store(key, nil, at: settings.configPath)
            print("\(key) unset")
        }
    }
}
