import ChestCore

extension Settings {
    /// Every known setting with the value in effect and where it came from: what `chest config` shows, and what
    /// chestd answers to `config` about itself.
    public var effective: EffectiveSettings {
        EffectiveSettings(configPath: configPath, settings: Settings.known.map { key, _ in
            let value = values[key].map { key == "weather.key" ? "(set)" : $0 } ?? defaultValue(key)
            return EffectiveSettings.Setting(key: key, value: value, origin: Self.origin(origins[key]))
        })
    }

    /// The value in effect when a key is not set.
    public func defaultValue(_ key: String) -> String {
        switch key {
        case "name": senderName
        case "chest": chestDirectory
        case "socket": socketPath
        case "gpsd": "localhost:2947"
        case "weather.url": "the provider's own"
        case "weather.maxAgeMinutes": "30"
        case "hook.timeoutSeconds": "10"
        case "notify": "true"
        default: "(none)"
        }
    }

    /// `origins`' words as a person reads them: "command line", "config file", "environment ($CHEST_DIR)".
    static func origin(_ recorded: String?) -> String {
        switch recorded {
        case nil: "default"
        case "flag"?: "command line"
        case "file"?: "config file"
        case let other?: other
        }
    }
}
