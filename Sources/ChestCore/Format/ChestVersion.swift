/// The version every executable reports.
public enum ChestVersion {
    public static let string = "0.1.0"
}
