import ChestTestSupport
import Foundation
import Glibc

/// `chest watch --json` of one team, its lines in a file beside the team's chest; stopped when this goes.
final class TeamWatch {
    let path: String
    private let process: TestProcess

    init(_ team: HuntWorld.Team, timeout: Int) throws {
        path = team.world.root + "/watch.jsonl"
        process = try team.world.spawnClient(
            ["watch", "--json", "--timeout", String(timeout)], stdout: path, stderr: path + ".err")
    }

    deinit {
        process.terminate()
    }
}
