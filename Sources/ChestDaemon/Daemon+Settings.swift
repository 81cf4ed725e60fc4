import ChestCore
import ChestIO

extension Daemon {
    /// SIGHUP and `chest config`: reads the settings file again, swaps the adapters that depend on it, and rescans
    /// the chest. Returns what the engine applies and what needs a restart instead, as sentences for `chest config`.
    func readSettings() -> SettingsReading {
        var maximumAge: Double?
        var notes: [String] = []
        do {
            let fresh = try Settings(configPath: settings.configPath, flags: settings.flags).checked()
            let restartKeys = SettingKey.allCases.filter { $0.needsRestart && fresh.values[$0] != settings.values[$0] }
            if !restartKeys.isEmpty {
                notes.append("\(restartKeys.map(\.rawValue).joined(separator: ", ")) take effect when chestd restarts")
            }
            settings = fresh
            notifications = Notifications(settings: fresh)
            weather = WeatherService(settings: fresh, cachePath: fresh.chestDirectory + "/weather.json", log: log)
            maximumAge = fresh.weatherMaximumAge
            log.info("settings reloaded from \(fresh.configPath)")
        } catch {
            log.error("cannot reload the settings: \(error); keeping the old ones")
            notes.append("cannot read the settings: \(error); chestd keeps the old ones")
        }
        readHunt()
        rescanInbox()
        return SettingsReading(notes: notes, weatherMaximumAge: maximumAge)
    }
}
