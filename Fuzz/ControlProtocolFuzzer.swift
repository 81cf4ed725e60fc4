import Foundation

/// libFuzzer entry point for the control socket's JSON lines: the request chestd decodes from a client
/// (`JSONDecoder().decode(ControlRequest.self, …)`, as `Daemon.handleRequest` does) and the reply and event lines
/// the command line decodes from chestd (`ControlClient.decode`, `chest watch`). Any bytes must decode or throw,
/// never crash (docs/RELIABILITY.md "Fuzzing"). Built by scripts/fuzz.sh with ChestCore's sources, outside the
/// package, so `swift build` and `make test` never see it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzControlProtocol(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    if let request = try? JSONDecoder().decode(ControlRequest.self, from: data) {
        // What the daemon does next with a request it accepted: log its fields and answer with a line.
        _ = ChestJSON.line(request)
        _ = request.id.map { TerminalText.escaped($0) }
    }
    let decoder = ChestJSON.decoder()
    _ = try? decoder.decode(ControlReply<Empty>.self, from: data)
    _ = try? decoder.decode(ControlReply<StatusReport>.self, from: data)
    _ = try? decoder.decode(ControlReply<[ListItem]>.self, from: data)
    _ = try? decoder.decode(ControlReply<ReadReport>.self, from: data)
    _ = try? decoder.decode(ControlReply<PINOutcome>.self, from: data)
    _ = try? decoder.decode(ControlReply<ImportResult>.self, from: data)
    _ = try? decoder.decode(ControlReply<Fix>.self, from: data)
    _ = try? decoder.decode(ChestEvent.self, from: data)
    return 0
}
