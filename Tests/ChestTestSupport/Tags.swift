import Foundation
import Testing

/// What a suite needs beyond the test process, so the fast loop (`make check`) can leave it out: `make check` runs
/// the suites tagged with none of these, `make test` runs them all (README "Development").
extension Tag {
    /// Starts programs of chest's (chest, chestd) or others' and waits on them.
    @Tag public static var process: Self
    /// Needs a real gpsd (fed by gpsfake or a pty).
    @Tag public static var gpsd: Self
    /// Needs a real mosquitto broker.
    @Tag public static var mosquitto: Self
    /// Renders pages in headless Chromium.
    @Tag public static var chromium: Self
    /// Builds on or installs the Debian package.
    @Tag public static var package: Self
}

/// Which tests a run of the test binary is for: `make check` runs the in-process ones, `make test` all.
public enum TestLoop: Sendable {
    case inProcess, everything

    /// From `CHEST_TESTS` (`in-process` under `make check`).
    public static let current: TestLoop = ProcessInfo.processInfo.environment["CHEST_TESTS"] == "in-process" ? .inProcess : .everything

    /// The tags that take a test out of the in-process loop.
    public static let outOfProcessTags: Set<Tag> = [.process, .gpsd, .mosquitto, .chromium, .package]
}
