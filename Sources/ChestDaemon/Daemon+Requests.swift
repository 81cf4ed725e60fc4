import ChestCore
import ChestIO
import FoundationEssentials

extension Daemon {
    /// Decodes one control request and hands it to the engine, which answers it (reading a file to import or the
    /// settings through effects).
    func handleRequest(_ line: Data, on connection: ControlConnection) {
        let client = ClientID(nextClient)
        nextClient += 1
        clients[client] = connection
        let sink = self.sink
        connection.onClose { sink.yield(.clientGone(client)) }
        let request: ControlRequest
        do {
            request = try JSONDecoder().decode(ControlRequest.self, from: line)
        } catch {
            log.warning("control socket: malformed request refused")
            clients.removeValue(forKey: client)
            let why =
                (error as? ControlRequest.Refusal).map(\.description)
                ?? "expected one JSON object such as {\"op\":\"status\"}"
            return connection.send(Reply.failure("malformed request: " + why).line(timeZone: .current), thenClose: true)
        }
        feed(.request(client, request, now()))
    }
}
