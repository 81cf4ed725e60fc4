import ChestIO
import Foundation
import Testing

/// Handing memory back to the kernel (docs/BENCHMARKS.md).
@Suite struct MemoryTests {
    /// libc's code, far down /proc/self/smaps, is marked for random access and dropped like the process's own;
    /// the test itself runs on, its pages brought back from the page cache as they are used.
    @Test func releasingCodePagesReachesTheLibrariesAndTheProcessRunsOn() throws {
        Memory.releaseCodePages()
        let smaps = try #require(FileHandle(forReadingAtPath: "/proc/self/smaps")).readDataToEndOfFile()
        var libcCodeFlags: [String] = []
        var inLibcCode = false
        for line in String(decoding: smaps, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ")
            if let first = line.unicodeScalars.first, ("0"..."9").contains(first) || ("a"..."f").contains(first) {
                inLibcCode = fields.count >= 6 && fields[1] == "r-xp" && fields[5].hasSuffix("/libc.so.6")
            } else if inLibcCode, fields.first == "VmFlags:" {
                libcCodeFlags.append(String(line))
            }
        }
        #expect(!libcCodeFlags.isEmpty)
        #expect(libcCodeFlags.allSatisfy { $0.split(separator: " ").contains("rr") })
    }
}
