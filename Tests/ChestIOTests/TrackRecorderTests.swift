import ChestCore
import ChestIO
import Foundation
import Testing

/// The track file as chestd writes it: a point at once at 1 Hz, at faster rates a write by the first fix 0.4 s after
/// the last write (or by the loop half a second after it), and the file rewritten to its window when it has grown
/// past it.
@Suite struct TrackRecorderTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// A 3D fix `seconds` after `start`, received at monotonic second `seconds`.
    func fix(_ seconds: Double) -> Fix {
        Fix(
            mode: .threeD, coordinate: Coordinate(latitude: 47.3769 + seconds * 1e-5, longitude: 8.5417),
            altitudeMSL: 410,
            eph: 3, time: start.addingTimeInterval(seconds), receivedAt: seconds)
    }

    func lines(_ path: String) -> [Substring] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n")
    }

    func temporaryPath() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "chest-track-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.path + "/track.txt"
    }

    @Test func atOneHertzEachPointIsWrittenAsItComes() throws {
        let path = try temporaryPath()
        let recorder = TrackRecorder(path: path)
        for second in 0..<5 {
            #expect(recorder.record(fix(Double(second)), at: Double(second)) == nil)
            #expect(lines(path).count == second + 1)
            #expect(recorder.writeDeadline == nil)
        }
    }

    @Test func fasterPointsWaitForTheNextFixAfterTheIntervalAndNoneIsLost() throws {
        let path = try temporaryPath()
        let recorder = TrackRecorder(path: path)
        _ = recorder.record(fix(0), at: 0)
        #expect(lines(path).count == 1)
        for step in 1...3 { _ = recorder.record(fix(Double(step) / 10), at: Double(step) / 10) }
        #expect(lines(path).count == 1, "written before the interval passed")
        #expect(
            recorder.writeDeadline == TrackRecorder.longestWait, "the loop writes them at the latest half a second on")
        // The fix that finds the interval passed writes them all, before the deadline: no wake-up of its own.
        _ = recorder.record(fix(TrackRecorder.writeInterval), at: TrackRecorder.writeInterval)
        #expect(lines(path).count == 5)
        #expect(recorder.writeDeadline == nil)
        _ = recorder.record(fix(0.5), at: 0.5)
        #expect(recorder.writeDeadline == TrackRecorder.writeInterval + TrackRecorder.longestWait)
        // No fix came: the loop writes what waits at the deadline.
        #expect(recorder.flush(at: 0.9) == nil)
        let written = lines(path)
        #expect(written.count == 6)
        #expect(written == recorder.log.points.map { Substring($0.line) })
        // A recorder started again on the file reads every point back.
        #expect(TrackRecorder(path: path).log.points.map(\.line) == recorder.log.points.map(\.line))
    }

    @Test func theFileIsRewrittenToItsWindowWithThePointsThatWaited() throws {
        let path = try temporaryPath()
        let recorder = TrackRecorder(path: path, window: 3_600, capacity: 40)
        for step in 0..<200 { _ = recorder.record(fix(Double(step) / 4), at: Double(step) / 4) }
        _ = recorder.flush(at: 100)
        let written = lines(path)
        #expect(written.count <= 50, "\(written.count) lines")
        #expect(written.last.map(String.init) == recorder.log.points.last?.line)
        let lastWritten: [String] = written.suffix(40).map { String($0) }
        let lastPoints: [String] = recorder.log.points.suffix(40).map { $0.line }
        #expect(lastWritten == lastPoints)
    }
}
