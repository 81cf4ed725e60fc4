import ChestCore
import ChestIO
import FoundationEssentials

extension Daemon {
    /// Sets up chestd's heap. Call it first in `main`, before any other thread starts: the first thread of Swift's
    /// pool or of Dispatch to allocate would otherwise get a malloc arena of its own, and the chest loaded there stayed resident in it,
    /// about 4.5 MB more after a restart with 10,000 messages (docs/BENCHMARKS.md).
    package static func prepareHeap() {
        Memory.useOneArena()
    }

    /// Parks the sealed pages' bytes in a file of chestd's own from now on (`ParkingFile`), before the chest is
    /// read: about 400 bytes a composed message that only a key's trial, an opening or a file written back reads
    /// (docs/BENCHMARKS.md "Memory"). Without it (the state directory refuses a file) they stay on the heap.
    func parkSealedPages() {
        do {
            ParkedBytes.park(in: try ParkingFile(beside: store))
        } catch {
            log.warning("cannot make a file for the sealed pages' bytes: \(error); they stay in memory")
        }
    }

    /// Hands back what start-up's decoding left: free heap pages and the code only start-up ran. Once more a
    /// second later, for the code of start-up's follow-ups (gpsd's first answer or refusal, the first log lines),
    /// which the loop runs just after it is ready.
    func releaseStartupMemory() {
        Memory.releaseFreePages()
        Memory.releaseCodePages(data: true)
        releaseCodeSoon(within: 1)
    }

    /// Seconds after a rare event before the code it ran is released.
    static let codeReleaseDelay = 3.0

    /// Rare work (an unlock, gpsd connecting, a receiver found or lost, an ingest, a request's event) brings its
    /// code back into memory, 64 KB around each page it touches, and nothing sends it away again: a release a few
    /// seconds after such an event, one for any number of them, keeps resident only the code that runs on every
    /// fix, which comes back within a second. The heap's free pages, which such work leaves too (an unlock's
    /// JSON), go at the same time (docs/BENCHMARKS.md "Memory").
    ///
    /// `within` brings a release aimed later forward: after gpsd goes, nothing follows that the release should wait
    /// for (the reader's retries hand back their own code, `GPSReader`'s `beforeEachPause`). `data` pages out the
    /// program's data segment as well (`Memory.releaseCodePages`), for work after which no fix comes soon to read
    /// its constants again.
    func releaseCodeSoon(within delay: Double = codeReleaseDelay, data: Bool = false) {
        codeReleasePagesOutData = codeReleasePagesOutData || data
        let due = now().wall.timeIntervalSince1970 + delay
        if let aimed = codeReleaseDue, aimed <= due { return }
        codeReleaseDue = due
        memoryTimer?.aim(at: due)
    }

    /// What `memoryTimer` does when it fires.
    func releaseRareMemory() {
        Memory.releaseFreePages()
        Memory.releaseCodePages(data: codeReleasePagesOutData)
        codeReleaseDue = nil
        codeReleasePagesOutData = false
    }
}
