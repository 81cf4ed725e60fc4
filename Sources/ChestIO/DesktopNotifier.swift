import FoundationEssentials
import Glibc

/// Shows a desktop notification for an unlocked page with `notify-send`, when there is a desktop to
/// show it on.
///
/// `notify-send` is started directly (no shell), so titles and page text are never interpreted. It gets
/// the same deadline discipline as hooks: its process group is killed when it hangs, which it does when
/// the session bus in its environment does not answer.
package struct DesktopNotifier: Sendable {
    /// The variables that mean a graphical session or its session bus is reachable.
    package static let sessionVariables = ["DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS"]

    private let environment: [String: String]
    private let executable: String?
    private let timeout: Double

    /// - Parameters:
    ///   - environment: the daemon's environment; `notify-send` is looked up on its `PATH` and runs with it.
    ///   - timeout: seconds `notify-send` may take before its process group is killed.
    package init(environment: [String: String], timeout: Double = 5) {
        self.environment = environment
        self.executable = Self.isAvailable(environment: environment) ? Self.locate(environment) : nil
        self.timeout = timeout
    }

    /// Whether `notify-send` is on `PATH` and one of `DISPLAY`, `WAYLAND_DISPLAY` or
    /// `DBUS_SESSION_BUS_ADDRESS` is set.
    package static func isAvailable(environment: [String: String]) -> Bool {
        sessionVariables.contains { !(environment[$0] ?? "").isEmpty } && locate(environment) != nil
    }

    /// Whether this notifier will try to show anything.
    package var isAvailable: Bool { executable != nil }

    /// Shows "TITLE" with "page N" and the page's first line, and `picture` (a file) when the page carries one;
    /// `.failedToStart` when unavailable.
    package func notifyUnlocked(title: String, page: Int, text: String, picture: String? = nil) async -> HookOutcome {
        guard let executable else {
            return .failedToStart(reason: "notify-send is not on PATH or no desktop session is set")
        }
        return await ChildProcess.run(
            executable: executable, arguments: Self.arguments(title: title, page: page, text: text, picture: picture),
            environment: environment, input: Data(), timeout: timeout, killGrace: 1)
    }

    /// Shows `summary` and `body` (a hunt organiser's word to the teams).
    package func notify(summary: String, body: String) async -> HookOutcome {
        guard let executable else {
            return .failedToStart(reason: "notify-send is not on PATH or no desktop session is set")
        }
        return await ChildProcess.run(
            executable: executable, arguments: ["--app-name=chest", "--icon=dialog-information", "--", summary, body],
            environment: environment, input: Data(), timeout: timeout, killGrace: 1)
    }

    /// The `notify-send` arguments: options, then summary and body after `--`, so a title starting
    /// with a dash stays a title.
    /// A picture goes both as the icon (what most notifiers show) and as the `image-path` hint (what the
    /// notification specification names for an image).
    static func arguments(title: String, page: Int, text: String, picture: String? = nil) -> [String] {
        let firstLine = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let body = firstLine.isEmpty ? "page \(page)" : "page \(page): \(firstLine)"
        let image = picture.map { ["--icon=\($0)", "--hint=string:image-path:\($0)"] } ?? ["--icon=dialog-information"]
        return ["--app-name=chest"] + image + ["--", title, body]
    }

    private static func locate(_ environment: [String: String]) -> String? {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = "\(directory)/notify-send"
            var info = stat()
            if stat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        return nil
    }
}
