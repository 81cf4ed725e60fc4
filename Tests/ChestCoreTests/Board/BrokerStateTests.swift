import Testing

@testable import ChestCore

/// The board's link to the broker in the words the terminal, the web page and `/board.json`'s `connection` show.
@Suite struct BrokerStateTests {
    @Test func eachStateHasItsWordsAndOnlyConnectedIsUp() {
        let states: [(BrokerState, String)] = [
            (.connecting, "connecting"), (.connected, "connected"),
            (.refused("Connection Refused: not authorised."), "refused: Connection Refused: not authorised."),
            (.reconnecting("The connection was lost."), "reconnecting (The connection was lost.)"),
            (.unreachable, "unreachable"),
        ]
        for (state, words) in states {
            #expect(state.description == words)
            #expect(state.isConnected == (state == .connected), "\(state)")
        }
    }
}
