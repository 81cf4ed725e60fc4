import CMosquitto
import FoundationEssentials

/// libmosquitto's callbacks, on the loop thread.
extension MQTTConnection {
    func installCallbacks() {
        mosquitto_connect_callback_set(mosq) { _, context, rc in
            MQTTConnection.of(context).connected(rc)
        }
        mosquitto_disconnect_callback_set(mosq) { _, context, rc in
            MQTTConnection.of(context).disconnected(rc)
        }
        mosquitto_publish_callback_set(mosq) { _, context, mid in
            MQTTConnection.of(context).published(mid)
        }
        mosquitto_message_callback_set(mosq) { _, context, message in
            guard let message else { return }
            MQTTConnection.of(context).received(message.pointee)
        }
    }

    private static func of(_ context: UnsafeMutableRawPointer?) -> MQTTConnection {
        Unmanaged<MQTTConnection>.fromOpaque(context!).takeUnretainedValue()
    }

    private func connected(_ rc: Int32) {
        guard rc == 0 else {
            let reason = mosquitto_connack_string(rc).map { String(cString: $0) } ?? "refused (\(rc))"
            let new = state.withLock { state in
                defer {
                    state.reported = reason
                    state.refused = true
                }
                return state.reported != reason
            }
            if new { emit(.connectionRefused(reason)) }
            return
        }
        let subscriptions = state.withLock { state in
            state.connected = true
            state.reported = nil
            state.failures = 0
            return state.subscriptions
        }
        // The broker may have lost the session (a clean start, a broker without persistence): subscribe again.
        for subscription in subscriptions {
            _ = mosquitto_subscribe(mosq, nil, subscription.pattern, subscription.qos)
        }
        emit(.connected)
    }

    private func disconnected(_ rc: Int32) {
        let reason = MQTTError.sentence(rc)
        let (wasConnected, refused) = state.withLock { state in
            defer {
                state.connected = false
                state.ended = true
            }
            return (state.connected, state.refused)
        }
        if wasConnected {
            state.withLock { $0.reported = reason }
            emit(.disconnected(reason))
        } else if !refused {
            report(failure: reason)
        }
    }

    private func published(_ mid: Int32) {
        // Waits for a publish call in progress, which may not have returned this ID yet.
        handle.withLock { _ in }
        emit(.delivered(mid))
    }

    private func received(_ message: mosquitto_message) {
        guard let topic = message.topic else { return }
        let payload =
            message.payloadlen > 0 && message.payload != nil
            ? Data(bytes: message.payload, count: Int(message.payloadlen)) : Data()
        emit(.message(topic: String(cString: topic), payload: payload, retained: message.retain))
    }
}
