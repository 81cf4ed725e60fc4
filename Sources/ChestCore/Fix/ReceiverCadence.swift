/// How often the receiver gives a new epoch: what gpsd reports (the DEVICE report's `cycle`) until chestd has
/// measured it from the epochs' arrivals. A streak's gap and a fix's life are judged against it, so that a
/// receiver with one epoch every 5 s can open a place (docs/DESIGN.md "Lock rules").
package struct ReceiverCadence: Sendable {
    /// gpsd's `cycle` for the receiver, in seconds, when it gave one.
    package var reported: Double?
    /// The last intervals between two epochs, by the monotonic clock, oldest first.
    private var intervals: [Double] = []
    /// The last epoch seen (`Fix.epoch`) and when its first report came.
    private var last: (epoch: Double, at: Double)?

    package init(reported: Double? = nil) {
        self.reported = reported
    }

    /// How many intervals the measure keeps: a single gap among them does not move the median.
    static let kept = 5

    /// The longest gap a streak bears whatever the cadence: a receiver slower than one epoch every 7.5 s never
    /// opens a place, so that three fixes spread over half a minute cannot pass for a stay.
    package static let longestGap = 15.0

    /// Seconds per epoch: the median of the intervals measured (the smaller middle one of an even count), else
    /// gpsd's cycle; nil when neither is known.
    package var seconds: Double? {
        guard !intervals.isEmpty else { return reported }
        return intervals.sorted()[(intervals.count - 1) / 2]
    }

    /// The longest gap between two epochs of a streak, and how long a fix stays current: twice the cadence, never
    /// less than a fix's 5 s life (`Fix.maximumAge`, what a 1 Hz receiver had before), never more than
    /// `longestGap`.
    package var maximumGap: Double {
        min(max(2 * (seconds ?? 0), Fix.maximumAge), Self.longestGap)
    }

    /// Whether the receiver is slow enough that a person waiting for a place should hear why: an epoch every 2 s or
    /// more.
    package var isSlow: Bool { (seconds ?? 0) >= 2 }

    /// Notes a report's epoch received at `at` (monotonic seconds). Only an epoch's first report times it; an
    /// interval longer than `longestGap` is a pause in the feed, not its cadence, and is not kept.
    package mutating func observe(epoch: Double, at: Double) {
        if let last, last.epoch == epoch { return }
        if let last, at > last.at, at - last.at <= Self.longestGap {
            intervals.append(at - last.at)
            if intervals.count > Self.kept { intervals.removeFirst(intervals.count - Self.kept) }
        }
        last = (epoch, at)
    }

    /// The feed broke (gpsd or the receiver gone): the next epoch starts no interval.
    package mutating func breakRun() { last = nil }
}
