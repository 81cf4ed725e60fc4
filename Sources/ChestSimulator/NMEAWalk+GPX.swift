import ChestCore
import ChestGPX

extension NMEAWalk {
    /// The walk as GPX 1.1: its waypoints (named "1", "2", … in order) and a track of every epoch with a fix
    /// (GPX cannot say "no fix", so those epochs are left out).
    package var gpx: GPX {
        GPX(
            waypoints: waypoints.enumerated().map { index, waypoint in
                GPX.Waypoint(name: String(index + 1), coordinate: waypoint.coordinate, elevation: waypoint.altitudeMSL)
            },
            track: epochs().filter(\.hasFix).map {
                GPX.TrackPoint(coordinate: $0.coordinate, elevation: $0.altitudeMSL, time: $0.time)
            })
    }
}
