import Glibc

/// Seconds of `CLOCK_MONOTONIC`: immune to the wall clock being set, used to age fixes and readings.
package enum MonotonicClock {
    /// The corresponding C function is `clock_gettime(CLOCK_MONOTONIC)`.
    package static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
