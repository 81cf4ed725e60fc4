import CUTF8Proc

/// Unicode normal forms and widths through libutf8proc (docs/FORMAT.md "Answer locks", docs/SECURITY.md "Known
/// senders", docs/HUNTS.md "Team names"): the answer lock's normal form, the lookalike skeleton and the confusable
/// skeleton need NFKC, NFC and NFD, and the Swift standard library does not offer them publicly; the full Foundation
/// would bring ICU's 34 MB of data with them (docs/PACKAGING.md). Team names' widths on a terminal come from it too.
extension String {
    /// Normalization Form KC: compatibility decomposition, then canonical composition ("ﬁ" → "fi", "Ｚ" → "Z").
    package var compatibilityComposed: String {
        Self.normalise(self, UTF8PROC_STABLE.rawValue | UTF8PROC_COMPOSE.rawValue | UTF8PROC_COMPAT.rawValue)
    }

    /// Normalization Form C: canonical decomposition, then canonical composition ("e" + U+0301 → "é").
    package var canonicallyComposed: String {
        Self.normalise(self, UTF8PROC_STABLE.rawValue | UTF8PROC_COMPOSE.rawValue)
    }

    /// Normalization Form D: canonical decomposition ("é" → "e" + U+0301), the first and last step of UTS #39's
    /// skeleton (`Confusables.skeleton`).
    package var canonicallyDecomposed: String {
        Self.normalise(self, UTF8PROC_STABLE.rawValue | UTF8PROC_DECOMPOSE.rawValue)
    }

    /// Whether the text is in NFC, byte for byte: `==` compares canonical equivalents as equal, which a name on the
    /// broker (a topic level, a user name) is not.
    package var isCanonicallyComposed: Bool {
        utf8.allSatisfy { $0 < 0x80 } || utf8.elementsEqual(canonicallyComposed.utf8)
    }

    /// The columns the text takes on a terminal: two for each wide character ("東京" takes four), none for a
    /// combining mark, one for the rest, so that a table of names lines up in any script.
    package var terminalColumns: Int {
        if utf8.allSatisfy({ $0 < 0x80 }) { return utf8.count }
        return unicodeScalars.reduce(0) { $0 + max(Int(utf8proc_charwidth(utf8proc_int32_t($1.value))), 0) }
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
