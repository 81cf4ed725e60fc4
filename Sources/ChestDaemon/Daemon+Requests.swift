import ChestCore
import ChestIO
import Foundation

extension Daemon {
    /// Decodes one control request and hands it to the engine, which answers it. `import` first reads the file.
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
            let reply = Reply.failure("malformed request: expected one JSON object such as {\"op\":\"status\"}")
            return connection.send(reply.line, thenClose: true)
        }
        if request.op == .reload {
            clients.removeValue(forKey: client)
            return connection.send(ChestJSON.line(ControlReply(result: reload())), thenClose: true)
        }
        if request.op == .import, let path = request.path, path.hasPrefix("/") {
            importFile(path, for: client)
        } else {
            feed(.request(client, request, now()))
        }
    }
}
