import Glibc

extension String {
    /// `format` filled in as C's printf fills it in (`%d`, `%02d`, `%.1f`, `%g`, `%04X`): the same bytes
    /// Foundation's `String(format:)` gave for these, without Foundation (docs/PACKAGING.md "One small program").
    /// Strings go in by interpolation, not as `%s` arguments.
    package init(printf format: String, _ arguments: any CVarArg...) {
        self = withVaList(arguments) { list in
            var buffer = [CChar](repeating: 0, count: 128)
            let needed = Int(
                buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, format, list) })
            if needed >= buffer.count {
                buffer = [CChar](repeating: 0, count: needed + 1)
                _ = withVaList(arguments) { again in
                    buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, format, again) }
                }
            }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
}
