import Foundation

/// libFuzzer entry point for the message decoder: decoding and validating any bytes must throw or succeed,
/// never crash (docs/RELIABILITY.md "Fuzzing"). Built by scripts/fuzz.sh with ChestCore's sources, outside the
/// package, so `swift build` and `make test` never see it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMessageDecoder(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    if let message = try? MessageFile.decode(data) {
        _ = MessageFile.signedBytes(of: message)
        try? MessageFile.validate(message)
    }
    return 0
}
