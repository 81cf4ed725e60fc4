/// The version every executable reports.
package enum ChestVersion {
    package static let string = "0.1.0"
}
