import ChestTestSupport
import Foundation
import Testing

/// The shipped program carries no ICU: no module it links imports the full Foundation, FoundationNetworking,
/// FoundationXML or FoundationInternationalization, not even one type of them (`import struct Foundation.Date`
/// links the whole module). FoundationEssentials is the one allowed (docs/PACKAGING.md "One small program").
/// Only the benchmark, which is not shipped, may.
@Suite struct FoundationImportTests {
    @Test func noShippedModuleImportsMoreThanFoundationEssentials() throws {
        let sources = GPSLogs.packageRoot.appendingPathComponent("Sources").path
        let notShipped: Set<String> = ["ChestBench", "chest-bench"]
        let forbidden = try Regex(
            #"^\s*(@\w+\s+)*import\s+((struct|class|enum|protocol|func|var|let|typealias)\s+)?(Foundation|FoundationNetworking|FoundationXML|FoundationInternationalization)(\.|\s*$)"#
        )
        var offenders: [String] = []
        var checked = 0
        let files = FileManager.default.enumerator(atPath: sources)!
        while let path = files.nextObject() as? String {
            guard path.hasSuffix(".swift"), let module = path.split(separator: "/").first,
                !notShipped.contains(String(module))
            else { continue }
            checked += 1
            let text = try String(contentsOfFile: sources + "/" + path, encoding: .utf8)
            for line in text.split(separator: "\n")
            where line.contains("import") && line.firstMatch(of: forbidden) != nil {
                offenders.append("Sources/\(path): \(line)")
            }
        }
        #expect(checked > 300)
        #expect(offenders.isEmpty, "import FoundationEssentials instead: \(offenders)")
    }
}
