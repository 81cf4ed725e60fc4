import FoundationEssentials

/// The course's pages before they are written: which waypoints are stages, and how a cache's stages group and order.
extension GeocacheCourse {
    /// Additional waypoint types that are a place to go to with something to find: a page each. The others
    /// (parking, trailhead) are points, written into their cache's first page.
    static let stageTypes: Set<String> = [
        "stages of a multicache", "physical stage", "virtual stage", "question to answer", "reference point",
        "final location",
    ]

    /// The types of a cache's last page.
    static let finalTypes: Set<String> = ["final location"]

    /// The words of those types that make a cache's own waypoint with no type (TerraCaching's "Stage Two") a page when
    /// its name holds one; the others ("Parking and Trailhead", "Trail Junction") are points.
    static let stageWords: Set<String> = ["stage", "stages", "final", "question"]

    /// One page of the course before it is written.
    struct Stage {
        var waypoint: GeocacheWaypoint
        var coordinate: Coordinate
        /// Its page's title: the waypoint's, without the Lab project's name its stages all repeat.
        var title: String
        /// What the file calls it: its code, a Lab stage's name without its project's (`waypoint:`).
        var name = ""
        var points: [String] = []
        /// The code of the cache whose waypoint this is, for a cache's own waypoint (`cacheID`) with a code of its own.
        var cache: String?
    }

    /// Whether a cache's own waypoint with no type is a stage by its name: it holds a word of `stageWords`.
    static func isStage(_ name: String) -> Bool {
        name.lowercased().split { !$0.isLetter }.contains { stageWords.contains(String($0)) }
    }

    /// A point's additional waypoint and a cache share the code after their first two letters (`PK1BKP3`, `GC1BKP3`):
    /// that part of a code longer than two letters.
    static func suffix(_ code: String) -> String? { code.count > 2 ? String(code.dropFirst(2)) : nil }

    /// The pages of one cache: its own first, its stages in file order, its Final last; its points go on the first.
    struct Unit {
        var stages: [Stage]
        var hasCache: Bool
        var points: [String] = []
    }

    /// Where a page goes among its cache's: the cache itself, a stage, a Final (by its type, or by its name for a
    /// cache's own waypoint).
    static func rank(_ stage: Stage) -> Int {
        let waypoint = stage.waypoint
        if let type = waypoint.additionalType?.lowercased() { return finalTypes.contains(type) ? 2 : 1 }
        guard stage.cache != nil else { return 0 }
        return waypoint.title.lowercased().split { !$0.isLetter }.contains("final") ? 2 : 1
    }
}
