/// The settings a running chestd uses, each with where its value came from: what `chest config` shows when chestd
/// runs (the `config` request), since chestd's command line and environment may differ from the shell's.
package struct EffectiveSettings: Hashable, Sendable, Codable {
    package struct Setting: Hashable, Sendable, Codable {
        package var key: String
        /// The value in effect; a secret (`weather.key`) is shown as "(set)".
        package var value: String
        /// "default", "config file", "environment ($CHEST_GPSD)" or "command line".
        package var origin: String

        package init(key: String, value: String, origin: String) {
            self.key = key
            self.value = value
            self.origin = origin
        }
    }

    /// The settings file read.
    package var configPath: String
    package var settings: [Setting]

    package init(configPath: String, settings: [Setting]) {
        self.configPath = configPath
        self.settings = settings
    }

    /// The setting of `key`, when there is one.
    package subscript(key: String) -> Setting? { settings.first { $0.key == key } }
}
