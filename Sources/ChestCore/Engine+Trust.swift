extension Engine {
    /// gpsd named the device feeding it, or it went away (`nil`): the trust of every later fix depends on it.
    mutating func handleReceiver(_ source: FixSource?) -> [Effect] {
        let before = trust.trust
        trust.receiver(source)
        return trust.trust == before ? [] : [.emit(.trust(trust.trust, source: source))]
    }

    /// Judges a fix's trust (docs/SECURITY.md "Hardware trust and time"); a `trust` event when it changed.
    mutating func assessTrust(_ fix: Fix) -> [Effect] {
        guard trust.assess(fix) else { return [] }
        return [.emit(.trust(trust.trust, source: trust.source))]
    }
}
