import ChestIO
import Foundation
import Glibc

/// Headless Chromium as a test's browser: as root it needs --no-sandbox, and each run gets a profile of its own.
package enum Chromium {
    package static func run(_ arguments: [String]) throws -> Subprocess.Outcome {
        let profile = try Directory.makeTemporary("chest-chromium", in: "/tmp")
        defer { try? FileManager.default.removeItem(atPath: profile) }
        return try Subprocess.run(
            "/usr/bin/chromium",
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0",
            ] + arguments,
            environment: ["PATH": "/usr/bin:/bin", "HOME": profile])
    }

    /// The switch that makes pages see `prefers-color-scheme: dark` (or light), whatever the machine's theme.
    package static func colourScheme(dark: Bool) -> String { "--blink-settings=preferredColorScheme=\(dark ? 0 : 1)" }

    /// A PNG's width and height, from its IHDR chunk.
    package static func pngSize(_ path: String) throws -> (Int, Int) {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard data.count > 24, data.prefix(8) == Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) else {
            return (0, 0)
        }
        func number(_ offset: Int) -> Int { data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }
}
