import CLibXML2
import ChestCore
import ChestIO

/// A cache description in HTML as the plain text a page holds, read with libxml2's forgiving HTML parser: blocks and
/// `<br>` as line breaks, list items as "- " lines, pictures as their alternative text, scripts and styles left out
/// (the element, not the text after it).
enum HTMLText {
    static let blocks: Set<String> = [
        "p", "div", "br", "hr", "li", "ul", "ol", "tr", "table", "h1", "h2", "h3", "h4", "h5", "h6",
        "blockquote", "pre", "center", "dd", "dt", "dl", "section", "article", "header", "footer",
        "figure", "figcaption",
    ]
    static let dropped: Set<String> = ["script", "style", "head", "title", "noscript", "iframe", "object"]

    /// Tags that mark a text as HTML when the file does not say (`<p>`, `<br/>`, `</div>`…): a plain text with a
    /// "<" of its own ("a < b", "<3") stays as it is.
    static let markers: Set<String> = blocks.union([
        "a", "b", "i", "u", "em", "strong", "span", "font", "img", "td", "th", "small",
        "big", "sub", "sup",
    ])

    /// Whether the text holds a tag of `markers`.
    static func looksLikeHTML(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            defer { index += 1 }
            guard bytes[index] == UInt8(ascii: "<") else { continue }
            var start = index + 1
            if start < bytes.count, bytes[start] == UInt8(ascii: "/") { start += 1 }
            var end = start
            while end < bytes.count, end - start <= 10,
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[end] | 0x20)
                    || (UInt8(ascii: "1")...UInt8(ascii: "6")).contains(bytes[end])
            {
                end += 1
            }
            guard end > start, end < bytes.count,
                [UInt8(ascii: ">"), UInt8(ascii: "/"), UInt8(ascii: " "), 0x09, 0x0A, 0x0D].contains(bytes[end])
            else {
                continue
            }
            let name = String(decoding: bytes[start..<end], as: UTF8.self).lowercased()
            if markers.contains(name) { return true }
        }
        return false
    }

    static func plain(_ html: String) -> String {
        let options = Int32(
            HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
                | HTML_PARSE_NONET.rawValue | HTML_PARSE_NOIMPLIED.rawValue)
        guard !html.isEmpty else { return "" }
        // Open already: the GPX the text comes from was read through libxml2 (XMLStreamReader).
        guard (try? OnDemandLibrary.xml2.open()) != nil else { return html }
        // In a container: text at the top level after an inline element ("<b>QA1</b>: Prvu…") would get an implied
        // <p> of its own from libxml2 without an <html> and <body> around it, and so a line of its own (issue 58).
        var utf8 = Array(("<div>" + html + "</div>").utf8)
        let document = utf8.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                htmlReadMemory($0, Int32(clamping: buffer.count), nil, "UTF-8", options)
            }
        }
        guard let document else { return html }
        defer { xmlFreeDoc(document) }
        var text = Text()
        var node = document.pointee.children
        while let current = node {
            append(current, to: &text)
            node = current.pointee.next
        }
        return String(decoding: text.bytes, as: UTF8.self)
    }

    /// The plain text as UTF-8 bytes: a Pocket Query's thousand descriptions collapsed Character by Character into
    /// a String cost seconds (docs/BENCHMARKS.md "A Pocket Query as a quest").
    struct Text {
        var bytes: [UInt8] = []
        var lastIsWhitespace: Bool { bytes.last.map { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D } ?? false }
        mutating func dropTrailingSpaces() { while bytes.last == 0x20 { bytes.removeLast() } }
        static func += (text: inout Text, string: String) { text.bytes += string.utf8 }
    }

    /// A node and its children, with the whitespace of text collapsed as a browser shows it.
    private static func append(_ node: xmlNodePtr, to text: inout Text) {
        switch node.pointee.type {
        case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
            guard let content = node.pointee.content else { return }
            // Spaces collapse as a browser shows them, but the writer's own line breaks stay: Lab and GeoGet
            // descriptions are plain text marked HTML, whose "Question:" lines must stay lines. CR LF is one break.
            var afterCR = false
            for scalar in String(cString: content).unicodeScalars {
                defer { afterCR = scalar == "\r" }
                if scalar.isNewline {
                    if scalar == "\n" && afterCR { continue }
                    text.dropTrailingSpaces()
                    if !text.bytes.isEmpty { text.bytes.append(0x0A) }
                } else if scalar.isWhitespaceQuickly {
                    if !text.bytes.isEmpty && !text.lastIsWhitespace { text.bytes.append(0x20) }
                } else {
                    if scalar.isASCII {
                        text.bytes.append(UInt8(scalar.value))
                    } else {
                        text.bytes += UTF8.encode(scalar)!
                    }
                }
            }
        case XML_ELEMENT_NODE:
            let name = node.pointee.name.map { String(cString: $0).lowercased() } ?? ""
            if dropped.contains(name) {
                // Without an implied <html> and <body> libxml2 never closes a description's first element, so all
                // that follows a leading <script> or <iframe> hangs under it (issue 61): its own text goes, the
                // elements after it stay.
                guard node.pointee.parent?.pointee.type == XML_HTML_DOCUMENT_NODE else { return }
                var child = node.pointee.children
                while let current = child {
                    if current.pointee.type == XML_ELEMENT_NODE { append(current, to: &text) }
                    child = current.pointee.next
                }
                return
            }
            let block = blocks.contains(name)
            if block { newline(&text) }
            if name == "li" { text += "- " }
            if name == "img", let alt = xmlGetProp(node, "alt") {
                text += String(cString: alt)
                chest_xmlFree(alt)
            }
            var child = node.pointee.children
            while let current = child {
                append(current, to: &text)
                child = current.pointee.next
            }
            if block { newline(&text) }
            if ["p", "h1", "h2", "h3", "h4", "h5", "h6", "table", "blockquote"].contains(name) { text += "\n" }
        default:
            var child = node.pointee.children
            while let current = child {
                append(current, to: &text)
                child = current.pointee.next
            }
        }
    }

    private static func newline(_ text: inout Text) {
        text.dropTrailingSpaces()
        if !text.bytes.isEmpty, text.bytes.last != 0x0A { text.bytes.append(0x0A) }
    }
}
