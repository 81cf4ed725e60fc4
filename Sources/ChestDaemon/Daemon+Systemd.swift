import ChestCore

extension Daemon {
    /// One line for systemd's STATUS=: the fix (never a stale one as current) and the counts.
    func summary() -> String {
        let now = now()
        let state = engine.fixState(now: now)
        let fix =
            engine.lastFix.map { state.hasFix ? $0.mode.description : "no fix: " + (state.reason ?? "") }
            ?? LockReason.noFix(gpsConnected: engine.gps.connected)
        let counts = engine.messageCounts
        return "\(fix); \(counts.locked) locked, \(counts.partial) partial, \(counts.open) open"
    }

    func updateSystemdStatus() {
        guard systemd.isEnabled else { return }
        let text = summary()
        if text != systemdStatus {
            systemdStatus = text
            systemd.status(text)
        }
    }
}
