import CUTF8Proc

/// Unicode normal forms through libutf8proc (docs/FORMAT.md "Answer locks", docs/SECURITY.md "Known senders"): the
/// answer lock's normal form and the lookalike skeleton need NFKC and NFC, and the Swift standard library does not
/// offer them publicly; the full Foundation would bring ICU's 34 MB of data with them (docs/PACKAGING.md).
extension String {
    /// Normalization Form KC: compatibility decomposition, then canonical composition ("ﬁ" → "fi", "Ｚ" → "Z").
    package var compatibilityComposed: String {
        Self.normalise(self, UTF8PROC_STABLE.rawValue | UTF8PROC_COMPOSE.rawValue | UTF8PROC_COMPAT.rawValue)
    }

    /// Normalization Form C: canonical decomposition, then canonical composition ("e" + U+0301 → "é").
    package var canonicallyComposed: String {
        Self.normalise(self, UTF8PROC_STABLE.rawValue | UTF8PROC_COMPOSE.rawValue)
    }

    private static func normalise(_ text: String, _ options: UInt32) -> String {
        var text = text
        return text.withUTF8 { bytes -> String in
            guard !bytes.isEmpty else { return "" }
            var mapped: UnsafeMutablePointer<utf8proc_uint8_t>?
            let length = utf8proc_map(bytes.baseAddress, bytes.count, &mapped, utf8proc_option_t(options))
            defer { free(mapped) }
            // A String is valid UTF-8, so utf8proc fails only without memory; the text unchanged is the safe answer.
            guard length >= 0, let mapped else { return String(decoding: bytes, as: UTF8.self) }
            return String(decoding: UnsafeBufferPointer(start: mapped, count: length), as: UTF8.self)
        }
    }
}
