import ChestCore
import ChestGPS
import ChestIO
import ChestMQTT

import struct FoundationEssentials.Data

/// Everything the daemon's loop reacts to, from every adapter.
enum DaemonEvent: Sendable {
    case signal(ReceivedSignal)
    case chest(ChestWatcher.Event)
    /// A file in `rejected/` was written after it was refused.
    case rejectedChanged(ChestWatcher.Event)
    /// Time to look again at the inbox and at files left staged.
    case rescan
    /// A second after start-up, and a few seconds after rare work: time to hand back the code only that work ran
    /// and the heap's free pages (`Daemon.releaseCodeSoon`).
    case releaseRareMemory
    case request(ControlConnection, Data)
    case clientGone(ClientID)
    case wake
    case gps(GPSEvent)
    /// A new connection to gpsd, for the loop to read (GPSReader's `onConnection`).
    case gpsConnection(GPSDConnection)
    case pinChecked(MessageID, pin: String, matching: [LockKey])
    /// A notification channel finished with an unlock.
    case notified(MessageID, page: Int, delivered: Bool)
    /// Time to tell systemd's watchdog the loop is alive.
    case watchdog
    case weatherFetched(WeatherFetchReply)
    /// The seal worker finished a key derivation.
    case keyDerived(KeyRequest, KeyResult, proofKey: String?)
    /// The hunt's broker connection (HuntLink.swift).
    case hunt(MQTTEvent)
}
