import ChestCore
import ChestIO
import FoundationEssentials
import Glibc

/// How unlocks reach the user beyond `chest watch`: a desktop notification when a graphical session is there,
/// and the configured hook command. Each runs off the loop and reports back whether it got through.
struct Notifications: Sendable {
    let hook: String?
    let hookTimeout: Double
    let desktop: DesktopNotifier?
    let environment: [String: String]

    init(settings: Settings, environment: [String: String] = ProcessInfo.processInfo.environment) {
        hook = settings.hook
        hookTimeout = settings.hookTimeout
        self.environment = environment
        let desktop = DesktopNotifier(environment: environment)
        self.desktop = settings.desktopNotifications && desktop.isAvailable ? desktop : nil
    }

    /// Whether any channel besides watchers exists.
    var isConfigured: Bool { hook != nil || desktop != nil }

    /// Sends an unlock through every channel; `done` hears true once one of them delivered it. The desktop shows
    /// the page's first picture, taken from the message file off the loop.
    func deliver(
        _ unlock: Unlock, picture: NotificationPicture? = nil, log: Log, done: @escaping @Sendable (Bool) -> Void
    ) {
        guard isConfigured else { return }
        Task {
            var delivered = false
            if let desktop {
                let path = desktop.isAvailable ? picture?.write(log: log) : nil
                let outcome = await desktop.notifyUnlocked(
                    title: unlock.title, page: unlock.page, text: unlock.text,
                    picture: path)
                if case .exited(0) = outcome {
                    delivered = true
                } else {
                    log.warning("desktop notification: \(outcome)")
                }
            }
            if let hook {
                let outcome = await HookRunner().run(
                    command: hook, event: .unlocked(unlock), environment: environment,
                    timeout: hookTimeout)
                if case .exited(0) = outcome { delivered = true } else { log.warning("hook \(hook): \(outcome)") }
            }
            done(delivered)
        }
    }

    /// Shows a hint that opened on the desktop (docs/FORMAT.md "Hints"); hooks hear unlocks only.
    func deliverHint(_ note: HintNote, log: Log) {
        guard let desktop else { return }
        Task {
            let outcome = await desktop.notifyUnlocked(
                title: "\(note.title): hint \(note.hint)", page: note.page, text: note.text)
            if case .exited(0) = outcome {} else { log.warning("desktop notification: \(outcome)") }
        }
    }

    /// Shows the organiser's word to the teams on the desktop (docs/HUNTS.md "Word to all teams"); the hook is
    /// for unlocks only.
    func announce(_ said: HuntWord.Said, huntName: String, log: Log) {
        guard let desktop else { return }
        Task {
            let summary = "\(huntName): the organiser says" + (said.team == nil ? "" : " to your team alone")
            let outcome = await desktop.notify(summary: summary, body: said.text)
            if case .exited(0) = outcome {} else { log.warning("desktop notification: \(outcome)") }
        }
    }
}
