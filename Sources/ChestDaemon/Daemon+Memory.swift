import ChestIO
import Foundation

extension Daemon {
    /// Sets up chestd's heap. Call it first in `main`, before any other thread starts: the first thread of Swift's
    /// pool or of Dispatch to allocate would otherwise get a malloc arena of its own, and the chest loaded there stayed resident in it,
    /// about 4.5 MB more after a restart with 10,000 messages (docs/BENCHMARKS.md).
    public static func prepareHeap() {
        Memory.useOneArena()
    }

    /// Hands back what start-up's decoding left: free heap pages and the code only start-up ran. Once more a
    /// second later, for the code of start-up's follow-ups (gpsd's first answer or refusal, the first log lines),
    /// which the loop runs just after it is ready.
    func releaseStartupMemory() {
        Memory.releaseFreePages()
        Memory.releaseCodePages()
        memoryTimer?.aim(at: Date().timeIntervalSince1970 + 1)
    }
}
