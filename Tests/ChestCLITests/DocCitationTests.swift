import ChestTestSupport
import Foundation
import Testing

/// Every citation of the form `docs/X.md "Heading"` in the sources, tests, scripts and docs names a page that exists
/// and a heading on it: a comment that sends the next engineer to a section must find it. A heading may be cited
/// by its whole text or by its name before a colon ("Format 3" for "Format 3: sealed places that give nothing
/// away"). Comment markers at line starts are dropped first, so a citation may wrap. Outside docs/, no citation names
/// a dated entry ("2026-11-26: the hill walk"): a diary's heading is history, the sections above it stay current.
@Suite struct DocCitationTests {
    static let root = GPSLogs.packageRoot.path
    static let searched = [
        "Sources", "Tests", "scripts", "packaging", "docs", "examples", "udev", "mk", "README.md", "Makefile",
    ]

    @Test func everyCitedHeadingExists() throws {
        var headings: [String: Set<String>?] = [:]
        var missing: [String] = []
        var dated: [String] = []
        var cited = 0
        for path in try Self.files() {
            guard let text = try? String(contentsOfFile: Self.root + "/" + path, encoding: .utf8) else { continue }
            for (page, heading) in Self.citations(in: text, insideDocs: path.hasPrefix("docs/")) {
                cited += 1
                if headings[page] == nil { headings[page] = Self.headings(of: page) }
                guard let known = headings[page] ?? nil else {
                    missing.append("\(path): docs/\(page) does not exist")
                    continue
                }
                if !known.contains(heading) { missing.append("\(path): docs/\(page) has no heading \"\(heading)\"") }
                if !path.hasPrefix("docs/"),
                    heading.range(of: #"^[0-9]{4}-[0-9]{2}-[0-9]{2}"#, options: .regularExpression) != nil
                {
                    dated.append("\(path): docs/\(page) \"\(heading)\"")
                }
            }
        }
        #expect(cited > 100, "the scan found only \(cited) citations; is it reading the repository?")
        #expect(
            dated.isEmpty,
            "cite a stable section, not a dated entry of the history:\n\(dated.sorted().joined(separator: "\n"))")
        #expect(missing.isEmpty, "\(missing.sorted().joined(separator: "\n"))")
    }

    /// Every `Sources/…` and `Tests/…` path README.md and docs/ name exists (a `*` in the last part matches any
    /// text): a doc that sends the reader to a moved file sends them nowhere.
    @Test func everyPathTheDocsNameExists() throws {
        var missing: [String] = []
        var named = 0
        for page in ["README.md"]
            + (try FileManager.default.contentsOfDirectory(atPath: Self.root + "/docs"))
            .filter { $0.hasSuffix(".md") }.map({ "docs/" + $0 })
        {
            let text = try String(contentsOfFile: Self.root + "/" + page, encoding: .utf8)
            for path in Self.sourcePaths(in: text) {
                named += 1
                if !Self.exists(path) { missing.append("\(page): \(path) does not exist") }
            }
        }
        #expect(named > 20, "the scan found only \(named) paths; is it reading the docs?")
        #expect(missing.isEmpty, "\(missing.sorted().joined(separator: "\n"))")
    }

    @Test func thePathScanTakesGlobsAndLeavesPunctuation() {
        let text =
            "(Tests/ChestCoreTests/Hunt/BoardCoreTests.swift; `Sources/ChestBench/HuntBench*.swift`), Sources/ChestIO."
        #expect(
            Self.sourcePaths(in: text) == [
                "Tests/ChestCoreTests/Hunt/BoardCoreTests.swift", "Sources/ChestBench/HuntBench*.swift",
                "Sources/ChestIO",
            ])
        #expect(Self.exists("Sources/ChestBench/HuntBench*.swift") && !Self.exists("Sources/ChestBench/Nothing*.swift"))
    }

    /// The paths under Sources/ and Tests/ a text names, without the punctuation that ends a sentence around them.
    static func sourcePaths(in text: String) -> [String] {
        let expression = try! NSRegularExpression(pattern: #"(?<![\w/.])(?:Sources|Tests)/[A-Za-z0-9_./+*-]*"#)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            var path = Substring(text[Range(match.range, in: text)!])
            while let last = path.last, ".,:/".contains(last) { path.removeLast() }
            return String(path)
        }
    }

    /// Whether `path` (relative to the repository, with at most one `*` in its last part) names a file or directory.
    static func exists(_ path: String) -> Bool {
        guard let star = path.firstIndex(of: "*") else {
            return FileManager.default.fileExists(atPath: root + "/" + path)
        }
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        let name = path[path.index(after: path.lastIndex(of: "/") ?? path.startIndex)...]
        let (prefix, suffix) = (name.prefix { $0 != "*" }, path[path.index(after: star)...])
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root + "/" + directory)) ?? []
        return names.contains {
            $0.hasPrefix(prefix) && $0.hasSuffix(suffix) && $0.count >= prefix.count + suffix.count
        }
    }

    @Test func theScanFindsAWrappedCitationAndAShortName() {
        let text = "/// see (docs/FORMAT.md\n/// \"Format 3\") and docs/HUNTS.md \"Hints\", or DESIGN.md \"Late keys\""
        #expect(
            Self.citations(in: text, insideDocs: false).map { "\($0.page)|\($0.heading)" } == [
                "FORMAT.md|Format 3", "HUNTS.md|Hints",
            ])
        #expect(Self.citations(in: text, insideDocs: true).count == 3)
    }

    /// (page, heading) pairs; inside docs/, a sibling page may be cited without the directory.
    static func citations(in text: String, insideDocs: Bool) -> [(page: String, heading: String)] {
        let joined = text.replacingOccurrences(
            of: #"\n[ \t]*(///|//|#|\*)?[ \t]*"#, with: " ", options: .regularExpression)
        let pattern =
            insideDocs ? #"(?<![\w/])(?:docs/)?([A-Z]+\.md),? "([^"]+)""# : #"docs/([A-Za-z0-9_-]+\.md),? "([^"]+)""#
        let expression = try! NSRegularExpression(pattern: pattern)
        let range = NSRange(joined.startIndex..., in: joined)
        return expression.matches(in: joined, range: range).map { match in
            (
                String(joined[Range(match.range(at: 1), in: joined)!]),
                String(joined[Range(match.range(at: 2), in: joined)!])
            )
        }
    }

    /// Each heading's text, and its name before a colon.
    static func headings(of page: String) -> Set<String>? {
        guard let text = try? String(contentsOfFile: root + "/docs/" + page, encoding: .utf8) else { return nil }
        var names: Set<String> = []
        for line in text.split(separator: "\n") where line.hasPrefix("#") {
            let heading = line.drop(while: { $0 == "#" }).trimmingCharacters(in: .whitespaces)
            names.insert(heading)
            if let colon = heading.firstIndex(of: ":") { names.insert(String(heading[..<colon])) }
        }
        return names
    }

    static func files() throws -> [String] {
        var files: [String] = []
        for entry in searched {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root + "/" + entry, isDirectory: &isDirectory) else {
                continue
            }
            guard isDirectory.boolValue else {
                files.append(entry)
                continue
            }
            let walker = FileManager.default.enumerator(atPath: root + "/" + entry)
            while let name = walker?.nextObject() as? String {
                let path = entry + "/" + name
                if path.hasSuffix("/DocCitationTests.swift") { continue }
                if [".swift", ".md", ".sh", ".py", ".conf", ".acl", ".mk", ".rules", ".service", ".txt"].contains(
                    where: path.hasSuffix)
                    || !name.contains(".")
                {
                    files.append(path)
                }
            }
        }
        return files
    }
}
