import ChestCore
import ChestIO

/// Everything the daemon's loop reacts to, from every adapter.
enum DaemonEvent: Sendable {
    case signal(Int32)
    case chest(ChestWatcher.Event)
    case request(ControlConnection, Data)
    case watcherGone(ObjectIdentifier)
    case wake
    case pinChecked(MessageID, pin: String, matching: [LockKey])
}

import struct Foundation.Data
