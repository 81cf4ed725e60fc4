import ChestCore
import Foundation

/// What `chest nav` shows, gathered from chestd each second: the fix, the way the reader moves, the location
/// locks still to reach, each message's progress and the latest events. Pure, so it is tested without a terminal.
struct NavState {
    /// A location lock still to reach, as chestd explains it (a sealed location explains no distance).
    struct Target: Equatable {
        var key: String
        var title: String
        var page: Int
        var set: LockSetName
        var metres: Double?
        var bearing: Double?
        /// What chestd says when it gives no distance: "2 of 3 confirming fixes", "GPS not connected".
        var note: String?
        /// The last known distance, kept while the fix is gone.
        var stale = false
    }

    struct Progress: Equatable {
        var title: String
        var open: Int
        var pages: Int
    }

    var status: StatusReport?
    /// Why chestd could not be asked.
    var problem: String?
    var targets: [Target] = []
    var progress: [Progress] = []
    var events: [String] = []
    /// Metres per second and degrees from north, from the last two distinct fixes.
    var speed: Double?
    var heading: Double?
    private var lastKnown: [String: Target] = [:]
    private var previous: (position: Coordinate, time: Date)?

    static let eventsKept = 50

    mutating func update(status: StatusReport, items: [ListItem], reports: [ReadReport]) {
        self.status = status
        problem = nil
        observeMotion(status.gpsd.connected ? status.fix : nil)
        progress = items.map { Progress(title: $0.title, open: $0.openPages.count, pages: $0.pages) }
        var targets: [Target] = []
        for report in reports where !report.sentByYou {
            for page in report.pages where !page.open {
                for set in page.sets {
                    for lock in set.locks where lock.type == .location && !lock.holds {
                        let key = "\(report.id)/\(page.number)\(set.set.rawValue)"
                        var target = Target(key: key, title: report.title, page: page.number, set: set.set)
                        switch lock.reason {
                        case let .away(metres, bearing)?:
                            target.metres = metres
                            target.bearing = bearing
                            lastKnown[key] = target
                        case .gpsNotConnected?, .needsFix?, .staleFix?:
                            if var known = lastKnown[key] {
                                known.stale = true
                                target = known
                            }
                            target.note = lock.reason?.text(now: status.clock.system)
                        case let reason?:
                            target.note = reason.text(now: status.clock.system)
                        case nil:
                            continue
                        }
                        targets.append(target)
                    }
                }
            }
        }
        self.targets = targets.sorted { ($0.metres ?? .infinity, $0.title, $0.page) < ($1.metres ?? .infinity, $1.title, $1.page) }
    }

    mutating func unreachable(_ problem: String) {
        self.problem = problem
        status = nil
        for index in targets.indices where targets[index].metres != nil { targets[index].stale = true }
    }

    mutating func add(event: String) {
        events.append(event)
        if events.count > Self.eventsKept { events.removeFirst(events.count - Self.eventsKept) }
    }

    private mutating func observeMotion(_ fix: StatusReport.FixReport?) {
        guard let fix, fix.mode.hasPosition, let latitude = fix.latitude, let longitude = fix.longitude,
              (fix.ageSeconds ?? 0) <= Fix.maximumAge else {
            speed = nil
            heading = nil
            return
        }
        let position = Coordinate(latitude: latitude, longitude: longitude)
        let time = fix.time ?? status?.clock.system ?? Date()
        if let previous, time > previous.time {
            let metres = previous.position.distance(to: position)
            speed = metres / time.timeIntervalSince(previous.time)
            if metres >= 1 { heading = previous.position.bearing(to: position) }
        }
        if previous?.time != time { previous = (position, time) }
    }
}
