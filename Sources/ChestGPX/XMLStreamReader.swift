import CLibXML2
import ChestCore
import ChestIO
import FoundationEssentials
import Glibc

/// A fault of an XML document that is not well-formed, as libxml2 reported it.
package struct XMLReadError: Error, Hashable, Sendable {
    package var line: Int
    /// libxml2's message, `nil` when it said nothing.
    package var message: String?

    /// libxml2 itself is missing: nothing was read.
    package var unavailable: LibraryUnavailable?

    package init(line: Int, message: String?) {
        self.line = line
        self.message = message
    }

    init(_ unavailable: LibraryUnavailable) {
        self.init(line: 1, message: nil)
        self.unavailable = unavailable
    }

    /// "not well-formed XML (libxml2: …)", as chest words it, or what libxml2's absence is.
    package var reason: String {
        unavailable.map(\.description) ?? "not well-formed XML" + (message.map { " (libxml2: \($0))" } ?? "")
    }
}

/// One pass over an XML document with libxml2's streaming `xmlTextReader`: its elements' starts and ends and its
/// text, in document order, with the element's name, namespace, depth, line and attributes. The one reader of XML in
/// chest (ChestGPX is the one module that links libxml2): geocaching GPX files (`GeocacheFile`) and GPX waypoints and
/// tracks (`GPX`) are both read through it.
package final class XMLStreamReader {
    package enum Event: Hashable, Sendable {
        /// An element's start tag; an empty element (`<a/>`) is a `start` and then an `end`.
        case start
        case end
        /// Character data (CDATA included), or whitespace between elements.
        case text
    }

    /// The event `next()` returned last.
    package private(set) var event: Event?
    /// The first error at or above libxml2's `XML_ERR_ERROR`; `next()` throws it at the latest at the end.
    package private(set) var firstError: XMLReadError?

    private let reader: xmlTextReaderPtr
    /// The bytes libxml2 reads; they must live as long as the reader.
    private let bytes: UnsafeMutableRawBufferPointer
    /// The `end` of an empty element, still to come.
    private var pendingEnd = false
    /// `skipSubtree()` was called on the current start.
    private var skipping = false

    /// A reader of `data` (no network access, CDATA as text, line numbers past 65535).
    package init(data: Data) throws(XMLReadError) {
        do throws(LibraryUnavailable) { try OnDemandLibrary.xml2.open() } catch { throw XMLReadError(error) }
        xmlInitParser()
        guard !data.isEmpty else { throw XMLReadError(line: 1, message: "Document is empty") }
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: data.count, alignment: 1)
        // Copied as one block: Data's element-by-element iterator was a twentieth of reading a Pocket Query.
        data.withUnsafeBytes { copy.copyMemory(from: $0) }
        bytes = copy
        let options = Int32(
            XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_BIG_LINES.rawValue
                | XML_PARSE_COMPACT.rawValue)
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self),
            let reader = xmlReaderForMemory(base, Int32(clamping: bytes.count), nil, nil, options)
        else {
            bytes.deallocate()
            throw XMLReadError(line: 1, message: "could not start reading")
        }
        self.reader = reader
        xmlTextReaderSetStructuredErrorHandler(
            reader,
            { context, error in
                guard let context, let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
                let reader = Unmanaged<XMLStreamReader>.fromOpaque(context).takeUnretainedValue()
                guard reader.firstError == nil else { return }
                let message = error.pointee.message.map { String(cString: $0) }?.trimmed() ?? "unknown error"
                reader.firstError = XMLReadError(line: Int(error.pointee.line), message: message)
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        xmlFreeTextReader(reader)
        bytes.deallocate()
    }

    /// The next start, end or text; `nil` at the end of a well-formed document. Throws the first error libxml2
    /// reported once it stops reading, or at the end.
    package func next() throws(XMLReadError) -> Event? {
        if pendingEnd {
            pendingEnd = false
            if !skipping {
                event = .end
                return .end
            }
        }
        let status = skipping ? xmlTextReaderNext(reader) : xmlTextReaderRead(reader)
        skipping = false
        return try advanced(status)
    }

    private func advanced(_ first: Int32) throws(XMLReadError) -> Event? {
        var status = first
        while status == 1 {
            switch Int(xmlTextReaderNodeType(reader)) {
            case Int(XML_READER_TYPE_ELEMENT.rawValue):
                pendingEnd = xmlTextReaderIsEmptyElement(reader) == 1
                event = .start
                return .start
            case Int(XML_READER_TYPE_END_ELEMENT.rawValue):
                event = .end
                return .end
            case Int(XML_READER_TYPE_TEXT.rawValue), Int(XML_READER_TYPE_CDATA.rawValue),
                Int(XML_READER_TYPE_WHITESPACE.rawValue), Int(XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue):
                event = .text
                return .text
            default:
                status = xmlTextReaderRead(reader)
            }
        }
        event = nil
        if let firstError { throw firstError }
        if status == -1 { throw XMLReadError(line: 1, message: nil) }
        return nil
    }

    /// After a `start`: the next `next()` goes past the element's whole subtree, its `end` included.
    package func skipSubtree() {
        guard event == .start else { return }
        skipping = true
    }

    /// The current element's local name (without its prefix).
    package var localName: String { Self.string(xmlTextReaderConstLocalName(reader)) ?? "" }

    /// The current element's namespace URI, "" for none.
    package var namespace: String { Self.string(xmlTextReaderConstNamespaceUri(reader)) ?? "" }

    /// The depth of the current node: 0 for the root element.
    package var depth: Int { Int(xmlTextReaderDepth(reader)) }

    /// The line of the current element's start tag (of the text's start).
    package var line: Int {
        guard let node = xmlTextReaderCurrentNode(reader) else { return Int(xmlTextReaderGetParserLineNumber(reader)) }
        return Int(xmlGetLineNo(node))
    }

    /// On a `start`, the attribute of this (qualified) name.
    package func attribute(_ name: String) -> String? {
        guard event == .start, let value = xmlTextReaderGetAttribute(reader, name) else { return nil }
        defer { chest_xmlFree(value) }
        return String(cString: value)
    }

    /// On a `text`, its characters.
    package var value: String {
        guard event == .text else { return "" }
        return Self.string(xmlTextReaderConstValue(reader)) ?? ""
    }

    /// On a `start`, the element's text (CDATA and entities resolved), `nil` when it is empty or holds only whitespace.
    /// The reader stays where it is. An entity declared in the document is expanded (up to `entityTextLimit` bytes
    /// of the text); one whose text is elsewhere (`SYSTEM "…"`: chest reads no other file) or nowhere is left out
    /// and told in `omittedEntities`.
    package func text() -> String? {
        guard event == .start, xmlTextReaderIsEmptyElement(reader) == 0, let node = xmlTextReaderExpand(reader)
        else { return nil }
        var collected = CollectedText(line: line)
        collected.append(children: node.pointee.children, entity: nil, depth: 0)
        omittedEntities += collected.omitted
        let text = String(decoding: collected.bytes, as: UTF8.self)
        return text.allSatisfy(\.isWhitespace) ? nil : text
    }

    /// An entity reference whose text `text()` left out.
    package struct OmittedEntity: Hashable, Sendable {
        /// The line of the element whose text it was in.
        package var line: Int
        package var name: String
        /// Why, in words: "its text is in file:///etc/passwd, which chest does not read".
        package var reason: String
    }

    /// The entity references `text()` left out so far, in document order.
    package private(set) var omittedEntities: [OmittedEntity] = []

    /// The most bytes entities add to one element's text: libxml2 refuses the exponential entities of a "billion
    /// laughs", and this bounds what is left of linear ones.
    package static let entityTextLimit = 1 << 20

    /// An element's text as libxml2's `xmlTextReaderReadString` collects it (text and CDATA, children's in order),
    /// with entity references expanded or told.
    private struct CollectedText {
        let line: Int
        var bytes: [UInt8] = []
        var entityBytes = 0
        var omitted: [OmittedEntity] = []

        /// `entity` is the name of the outermost entity this text comes from, `depth` how many are nested.
        mutating func append(children first: xmlNodePtr?, entity: String?, depth: Int) {
            var node = first
            while let current = node {
                node = current.pointee.next
                switch current.pointee.type {
                case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                    guard let content = current.pointee.content else { continue }
                    let length = strlen(UnsafeRawPointer(content).assumingMemoryBound(to: CChar.self))
                    if let entity {
                        guard entityBytes + length <= XMLStreamReader.entityTextLimit else {
                            omit(
                                entity,
                                "entities would add more than "
                                    + "\(XMLStreamReader.entityTextLimit >> 20) MiB to the element's text")
                            continue
                        }
                        entityBytes += length
                    }
                    bytes.append(contentsOf: UnsafeBufferPointer(start: content, count: length))
                case XML_ELEMENT_NODE:
                    append(children: current.pointee.children, entity: entity, depth: depth)
                case XML_ENTITY_REF_NODE:
                    reference(current, entity: entity, depth: depth)
                default:
                    continue
                }
            }
        }

        private mutating func reference(_ node: xmlNodePtr, entity outer: String?, depth: Int) {
            let name = node.pointee.name.map { String(cString: $0) } ?? ""
            guard let entity = xmlGetDocEntity(node.pointee.doc, node.pointee.name) else {
                return omit(name, "it is not declared in the file")
            }
            switch entity.pointee.etype {
            case XML_INTERNAL_GENERAL_ENTITY where depth < 40:
                // libxml2 keeps the entity's parsed text as its children; it nests no deeper than 40.
                append(children: entity.pointee.children, entity: outer ?? name, depth: depth + 1)
            case XML_EXTERNAL_GENERAL_PARSED_ENTITY, XML_EXTERNAL_GENERAL_UNPARSED_ENTITY:
                let system = entity.pointee.SystemID.map { String(cString: $0) } ?? "another file"
                omit(name, "its text is in \(system), and chest reads no file a GPX names")
            default:
                omit(name, "it nests entities too deep")
            }
        }

        private mutating func omit(_ name: String, _ reason: String) {
            let entity = OmittedEntity(line: line, name: name, reason: reason)
            if !omitted.contains(entity) { omitted.append(entity) }
        }
    }

    private static func string(_ pointer: UnsafePointer<xmlChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
