/// The settings a running chestd uses, each with where its value came from: what `chest config` shows when chestd
/// runs (the `config` request), since chestd's command line and environment may differ from the shell's.
public struct EffectiveSettings: Hashable, Sendable, Codable {
    public struct Setting: Hashable, Sendable, Codable {
        public var key: String
        /// The value in effect; a secret (`weather.key`) is shown as "(set)".
        public var value: String
        /// "default", "config file", "environment ($CHEST_GPSD)" or "command line".
        public var origin: String

        public init(key: String, value: String, origin: String) {
            self.key = key
            self.value = value
            self.origin = origin
        }
    }

    /// The settings file read.
    public var configPath: String
    public var settings: [Setting]

    public init(configPath: String, settings: [Setting]) {
        self.configPath = configPath
        self.settings = settings
    }

    /// The setting of `key`, when there is one.
    public subscript(key: String) -> Setting? { settings.first { $0.key == key } }
}
