import ChestCore
import FoundationEssentials
import Glibc
import Synchronization

/// chestd's sealed pages' bytes and its messages' signatures, off its heap (`ParkedBytes`, docs/BENCHMARKS.md
/// "Memory"): a file made in the chest's state directory and unlinked at once, so that it has no name to find or
/// leave behind, and stays readable while chestd holds it open, also when the chest directory is deleted under
/// chestd. Appended to, never rewritten; it goes with the process. The last bytes parked wait in a buffer of up to
/// 64 KiB before they are written.
package final class ParkingFile: BytesParking {
    private struct State {
        let descriptor: FileDescriptor
        /// Where the buffer's bytes go in the file; the file's end is this plus the buffer's length.
        var written: UInt64 = 0
        var buffer: [UInt8] = []
    }

    private let state: Mutex<State>
    static let bufferSize = 64 << 10

    /// A new parking file in `directory`.
    package init(directory: String) throws(SystemCallError) {
        var template = Array((directory + "/.parked-XXXXXX").utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { throw SystemCallError("mkstemp", path: directory) }
        unlink(template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        let descriptor = FileDescriptor(rawValue: fd)
        descriptor.setCloseOnExec()
        state = Mutex(State(descriptor: descriptor))
    }

    /// A new parking file in the chest's state directory.
    package convenience init(beside store: ChestStore) throws(SystemCallError) {
        try self.init(directory: store.stateDirectory)
    }

    deinit { state.withLock { $0.descriptor.close() } }

    package func park(_ bytes: [UInt8]) -> UInt64? {
        state.withLock { state in
            let offset = state.written + UInt64(state.buffer.count)
            state.buffer += bytes
            if state.buffer.count >= Self.bufferSize {
                guard Self.write(&state) else {
                    state.buffer.removeLast(bytes.count)
                    return nil
                }
            }
            return offset
        }
    }

    package func fetch(_ offset: UInt64, count: Int) -> [UInt8]? {
        state.withLock { state in
            if offset >= state.written {
                let start = Int(offset - state.written)
                guard start + count <= state.buffer.count else { return nil }
                return Array(state.buffer[start..<start + count])
            }
            var bytes = [UInt8](repeating: 0, count: count)
            var done = 0
            while done < count {
                let read = bytes.withUnsafeMutableBytes {
                    pread(state.descriptor.rawValue, $0.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                }
                if read < 0 && errno == EINTR { continue }
                guard read > 0 else { return nil }
                done += read
            }
            return bytes
        }
    }

    /// Writes the buffer at its place; false, keeping it, when the file cannot take it (a full disk).
    private static func write(_ state: inout State) -> Bool {
        var done = 0
        while done < state.buffer.count {
            let wrote = state.buffer.withUnsafeBytes {
                pwrite(
                    state.descriptor.rawValue, $0.baseAddress! + done, $0.count - done,
                    off_t(state.written) + off_t(done))
            }
            if wrote < 0 && errno == EINTR { continue }
            guard wrote > 0 else { return false }
            done += wrote
        }
        state.written += UInt64(done)
        state.buffer.removeAll(keepingCapacity: true)
        return true
    }
}
