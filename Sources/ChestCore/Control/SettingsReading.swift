/// The settings file as a reload found it (`chest config`, SIGHUP): what the engine applies and what the reader is
/// told.
package struct SettingsReading: Hashable, Sendable {
    /// Sentences for `chest config`: what takes effect only at restart, or why the file could not be read.
    package var notes: [String]
    /// How old a weather reading may be, in seconds; nil when the file could not be read (the old value stays).
    package var weatherMaximumAge: Double?

    package init(notes: [String], weatherMaximumAge: Double?) {
        self.notes = notes
        self.weatherMaximumAge = weatherMaximumAge
    }
}
