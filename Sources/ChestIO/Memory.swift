import FoundationEssentials
import Glibc
import Synchronization

/// Hands freed heap pages back to the kernel after a burst of work (glibc's `malloc_trim(3)`, which Swift's Glibc
/// module does not import): ingesting thousands of files leaves megabytes of decoder garbage between live objects.
@_silgen_name("malloc_trim")
private func malloc_trim(_ pad: Int) -> Int32

@_silgen_name("mallopt")
private func mallopt(_ parameter: Int32, _ value: Int32) -> Int32

/// The process's heap.
package enum Memory {
    /// Returns free heap pages to the kernel.
    package static func releaseFreePages() { _ = malloc_trim(0) }

    /// One malloc arena for every thread (glibc's M_ARENA_MAX, -8 in malloc.h): chestd's threads rarely allocate
    /// at once, and each extra arena keeps its own free pages resident (docs/BENCHMARKS.md). It only binds
    /// threads that have not allocated yet, so it must run before a second thread does: first thing in `main`.
    package static func useOneArena() { _ = mallopt(-8, 1) }

    /// Lets the kernel take back the pages of files mapped read-only (code, constants, unwinding tables) of this
    /// process and its libraries that start-up and a burst of ingest used and steady work does not: the kernel
    /// maps code in 64 KB runs around each page touched, so loading a chest leaves megabytes of decoder and
    /// start-up code resident. Only mappings that cannot be written and hold no page of their own (smaps'
    /// `Anonymous: 0 kB`; a segment written by the loader, such as relocated read-only data, holds some) are
    /// touched: dropping their pages only means reading them again from the page cache if they are needed;
    /// `MADV_RANDOM` asks for no read-ahead around such a fault.
    ///
    /// Which mappings qualify is found once, from smaps, whose every read walks the page tables of the whole
    /// process; later releases recognise them by their header in /proc/self/maps, a tenth of the cost (smaps was
    /// a twentieth of chestd's CPU on a walk with an unlock: docs/BENCHMARKS.md "The fix path's CPU").
    ///
    /// With `data`, the program's writable mappings of files are paged out too (`pageOut`): after start-up and a
    /// load, whose decoding read constants that steady work does not. Not after each rare event: what a walk's
    /// unlock pages out comes back from the disk on the next fixes, which cost the hill walk a tenth more CPU.
    package static func releaseCodePages(data: Bool = false) {
        let known = releasable.withLock { $0 }
        if let known {
            guard let maps = ProcFile.read("/proc/self/maps") else { return }
            for line in maps.split(separator: UInt8(ascii: "\n")) {
                let fields = line.split(separator: UInt8(ascii: " "))
                if let mapping = fileMapping(fields), known.contains(Array(line)) {
                    release(mapping)
                } else if data, let mapping = fileMapping(fields, writable: true) {
                    pageOut(mapping)
                }
            }
            return
        }
        guard let smaps = ProcFile.read("/proc/self/smaps") else { return }
        var found: Set<[UInt8]> = []
        var candidate: (header: ArraySlice<UInt8>, address: UnsafeMutableRawPointer, length: Int)?
        // Bytes, not String: Character-wise splitting of the hundred kilobytes cost milliseconds.
        for line in smaps.split(separator: UInt8(ascii: "\n")) {
            // A mapping's header starts with its range in lowercase hexadecimal, "start-end"; its fields follow,
            // each a capitalised name ("Rss:", "Anonymous:"…).
            guard let first = line.first else { continue }
            if hexValue(first) != nil {
                let fields = line.split(separator: UInt8(ascii: " "))
                if data, let mapping = fileMapping(fields, writable: true) { pageOut(mapping) }
                candidate = fileMapping(fields).map { (line, $0.address, $0.length) }
            } else if first == UInt8(ascii: "A"), let mapping = candidate, line.starts(with: "Anonymous:".utf8) {
                candidate = nil
                let fields = line.split(separator: UInt8(ascii: " "))
                guard fields.count > 1, fields[1].elementsEqual("0".utf8) else { continue }
                found.insert(Array(mapping.header))
                release((mapping.address, mapping.length))
            }
        }
        releasable.withLock { $0 = found }
    }

    /// The headers ("start-end perms offset dev inode path", the same in maps and smaps) of the mappings found
    /// releasable: all of a file's, range and permissions included, so that a mapping made since is never
    /// mistaken for one of them.
    private static let releasable = Mutex<Set<[UInt8]>?>(nil)

    /// Asks the kernel to reclaim what it can of a writable mapping of a file: the program's data segment holds
    /// constants read once at start-up and in a load (gold puts the writable pieces of `.rodata` there), which are
    /// clean pages of the file beside the few the program wrote. Reclaim drops only the clean ones, read again
    /// from the file when touched; the written ones stay, as there is no swap (or go to it). `MADV_PAGEOUT`
    /// (Linux 5.4, 21 in its headers) is not in Swift's Glibc module; an older kernel refuses it, harmlessly.
    private static func pageOut(_ mapping: (address: UnsafeMutableRawPointer, length: Int)) {
        _ = madvise(mapping.address, mapping.length, 21)
    }

    private static func release(_ mapping: (address: UnsafeMutableRawPointer, length: Int)) {
        _ = madvise(mapping.address, mapping.length, MADV_RANDOM)
        _ = madvise(mapping.address, mapping.length, MADV_DONTNEED)
    }

    /// The range of an smaps header ("start-end perms offset dev inode path", split at spaces) that maps a file
    /// and can be written (`writable`) or cannot; nil for anything else.
    private static func fileMapping(
        _ fields: [ArraySlice<UInt8>], writable: Bool = false
    ) -> (address: UnsafeMutableRawPointer, length: Int)? {
        guard fields.count >= 6, fields[1].first == UInt8(ascii: "r"),
            fields[1].contains(UInt8(ascii: "w")) == writable,
            !fields[4].elementsEqual("0".utf8), fields[5].first == UInt8(ascii: "/")
        else { return nil }
        let range = fields[0].split(separator: UInt8(ascii: "-"))
        guard range.count == 2, let start = hexNumber(range[0]), let end = hexNumber(range[1]), end > start,
            let address = UnsafeMutableRawPointer(bitPattern: start)
        else { return nil }
        return (address, Int(end - start))
    }

    private static func hexNumber(_ digits: ArraySlice<UInt8>) -> UInt? {
        guard !digits.isEmpty, digits.count <= 16 else { return nil }
        var value: UInt = 0
        for digit in digits {
            guard let nibble = hexValue(digit) else { return nil }
            value = value << 4 | nibble
        }
        return value
    }

    private static func hexValue(_ byte: UInt8) -> UInt? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt(byte - UInt8(ascii: "a") + 10)
        default: nil
        }
    }
}
