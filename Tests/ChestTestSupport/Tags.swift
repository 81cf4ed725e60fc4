import Foundation
import Testing

/// What a suite needs beyond the test process, so the fast loop (`make check`) can leave it out: `make check` runs
/// the suites tagged with none of these, `make test` runs them all (README "Development").
extension Tag {
    /// Starts programs of chest's (chest, chestd) or others' and waits on them.
    @Tag package static var process: Self
    /// Needs a real gpsd (fed by gpsfake or a pty).
    @Tag package static var gpsd: Self
    /// Needs a real mosquitto broker.
    @Tag package static var mosquitto: Self
    /// Renders pages in headless Chromium.
    @Tag package static var chromium: Self
    /// Builds on or installs the Debian package.
    @Tag package static var package: Self
}

/// Which tests a run of the test binary is for: `make check` runs the in-process ones, `make test` all.
package enum TestLoop: Sendable {
    case inProcess, everything

    /// From `CHEST_TESTS` (`in-process` under `make check`).
    package static let current: TestLoop =
        ProcessInfo.processInfo.environment["CHEST_TESTS"] == "in-process" ? .inProcess : .everything

    /// The tags that take a test out of the in-process loop.
    package static let outOfProcessTags: Set<Tag> = [.process, .gpsd, .mosquitto, .chromium, .package]
}
