import Foundation
import Synchronization

/// Collects values delivered from any thread (a reader's callback) and lets a test wait for them.
package final class EventRecorder<Event: Sendable>: Sendable {
    private let events = Mutex<[Event]>([])

    package init() {}

    /// Appends `event`; pass this as the callback.
    package func record(_ event: Event) { events.withLock { $0.append(event) } }

    /// Everything recorded so far, in order.
    package var all: [Event] { events.withLock { $0 } }

    /// Waits until `condition` holds for the recorded events, checking every 20 ms; false after `timeout` seconds.
    @discardableResult
    package func wait(timeout: Double, until condition: ([Event]) -> Bool) async -> Bool {
        await holdsWithin(timeout, checking: { condition(all) })
    }
}
