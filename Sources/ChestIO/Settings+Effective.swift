import ChestCore

extension Settings {
    /// Every known setting with the value in effect and where it came from: what `chest config` shows, and what
    /// chestd answers to `config` about itself.
    package var effective: EffectiveSettings {
        EffectiveSettings(
            configPath: configPath,
            settings: SettingKey.allCases.map { key in
                EffectiveSettings.Setting(
                    key: key.rawValue, value: effectiveValue(key), origin: Self.words(origin(of: key)))
            })
    }

    /// An origin as a person reads it: "command line", "config file", "environment ($CHEST_DIR)", "default".
    static func words(_ origin: SettingOrigin) -> String {
        switch origin {
        case .flag: "command line"
        case .file: "config file"
        case .environment, .unset: origin.description
        }
    }
}
