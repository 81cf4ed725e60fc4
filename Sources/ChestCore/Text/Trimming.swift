extension StringProtocol {
    /// Without spaces, tabs and line ends at either end: what Foundation's `.whitespacesAndNewlines` trims
    /// (General Category Z*, U+0009, U+200B, U+000A–U+000D and U+0085).
    package func trimmed() -> String { trimming { $0.isSpaceOrNewline } }

    /// Without spaces and tabs at either end, line ends kept: what Foundation's `.whitespaces` trims (General
    /// Category Zs, U+0009 and the zero-width space U+200B).
    package func trimmingSpaces() -> String { trimming { $0.isSpace } }

    /// Without line ends at either end: what Foundation's `.newlines` trims (U+000A–U+000D, U+0085, U+2028, U+2029).
    package func trimmingNewlines() -> String { trimming { $0.isNewline } }

    /// Without the scalars `drop` holds at either end.
    package func trimming(where drop: (Unicode.Scalar) -> Bool) -> String {
        // A String's own slice, not scalars appended one by one through the generic view (a fifth of reading a
        // Pocket Query).
        let scalars = (self as? String ?? String(self)).unicodeScalars
        guard let first = scalars.firstIndex(where: { !drop($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !drop($0) })!
        return String(scalars[first...last])
    }
}

extension Unicode.Scalar {
    /// A space or a tab (General Category Zs, U+0009, U+200B).
    package var isSpace: Bool { value == 0x09 || value == 0x200B || properties.generalCategory == .spaceSeparator }

    /// A line or paragraph end (U+000A–U+000D, U+0085, U+2028, U+2029).
    package var isNewline: Bool { (0x0A...0x0D).contains(value) || value == 0x85 || value == 0x2028 || value == 0x2029 }

    /// Unicode's White_Space property, looked up in its table only beyond ASCII (a table search per scalar was a tenth
    /// of reading a Pocket Query).
    package var isWhitespaceQuickly: Bool {
        value < 0x80 ? value == 0x20 || (0x09...0x0D).contains(value) : properties.isWhitespace
    }

    /// A space, a tab or a line end (General Category Z*, U+0009, U+200B, U+000A–U+000D, U+0085).
    package var isSpaceOrNewline: Bool { isSpace || isNewline }
}
