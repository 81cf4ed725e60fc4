@preconcurrency import Dispatch

/// Makes libdispatch open its timer descriptors while descriptors are to be had (docs/RELIABILITY.md
/// "Findings and fixes").
///
/// libdispatch opens one timerfd for each clock the first time a timer on that clock is armed, and never again;
/// when that first time falls while the process is out of descriptors, it ends the process (SIGILL) or leaves
/// the clock's timers dead. A daemon arms a timer on each clock, and waits for both to fire, before it takes
/// its first client.
package enum DispatchClocks {
    package static func prepare() {
        let queue = DispatchQueue(label: "chest.clocks")
        let fired = DispatchSemaphore(value: 0)
        queue.asyncAfter(deadline: .now() + .milliseconds(1)) { fired.signal() }
        let wall = DispatchSource.makeTimerSource(queue: queue)
        wall.setEventHandler { fired.signal() }
        wall.schedule(wallDeadline: .now() + .milliseconds(1))
        wall.resume()
        fired.wait()
        fired.wait()
        wall.cancel()
    }
}
