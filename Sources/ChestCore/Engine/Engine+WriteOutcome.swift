extension Engine {
    /// How the daemon carried out a write the engine asked for (`.change`, `.recordAttempts`): done, or failed in the
    /// error's words, which the engine says to the client that asked.
    package enum WriteOutcome: Hashable, Sendable {
        case done
        case failed(String)
    }
}
