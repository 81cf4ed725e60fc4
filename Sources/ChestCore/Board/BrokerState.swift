/// The board's link to the hunt's broker, as `chest board`'s header, the board in a browser and `/board.json` show
/// it (docs/HUNTS.md "The board").
package enum BrokerState: Hashable, Sendable, CustomStringConvertible {
    /// Started, no answer yet.
    case connecting
    case connected
    /// The broker refused the organiser's login, with its reason; the client keeps trying.
    case refused(String)
    /// The link was lost, with why; the client connects again.
    case reconnecting(String)
    /// `--results` or `--once` could not reach the broker: what is shown is what the board received before.
    case unreachable

    package var isConnected: Bool { self == .connected }

    /// "connected", "refused: …", "reconnecting (…)": the words of the header and of `/board.json`'s `connection`.
    package var description: String {
        switch self {
        case .connecting: "connecting"
        case .connected: "connected"
        case let .refused(why): "refused: \(why)"
        case let .reconnecting(why): "reconnecting (\(why))"
        case .unreachable: "unreachable"
        }
    }
}
