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
        // What chestd does with a request it accepted: the engine reads its fields, its log escapes them; and the
        // wire form, written again, must give the same request back.
        let line = ChestJSON.line(request)
        guard (try? JSONDecoder().decode(ControlRequest.self, from: line)) == request else {
            fatalError("a request does not survive its own wire form: \(String(decoding: line, as: UTF8.self))")
        }
        for text in texts(of: request) { _ = TerminalText.escaped(text) }
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

/// The strings a request carries, which chestd may write into its log.
private func texts(of request: ControlRequest) -> [String] {
    switch request {
    case .read(let id), .save(let id), .unsave(let id), .delete(let id), .hint(let id, _): [id]
    case .pin(let id, let pin, _): [id, pin]
    case .answer(let id, let text, _): [id, text]
    case .undelete(let id): id.map { [$0] } ?? []
    case .import(let path): [path]
    case .ask(let text): [text]
    case .submit(let id, _, let text, let path): [id] + [text, path].compactMap { $0 }
    case .list, .status, .watch, .fix, .reload, .config: []
    }
}
