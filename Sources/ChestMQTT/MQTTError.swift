import CMosquitto

/// A libmosquitto error code and its sentence.
package struct MQTTError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A `mosq_err_t` value, such as `MOSQ_ERR_NO_CONN`.
    package var code: Int32
    package var description: String

    package init(code: Int32, description: String) {
        self.code = code
        self.description = description
    }

    /// The error for `code`, worded by `mosquitto_strerror`.
    init(code: Int32) {
        self.init(code: code, description: MQTTError.sentence(code))
    }

    /// The client is not connected to the broker right now: keep the message and publish it after `connected`.
    package var isNotConnected: Bool { code == Int32(MOSQ_ERR_NO_CONN.rawValue) }

    static func sentence(_ code: Int32) -> String {
        // For MOSQ_ERR_ERRNO libmosquitto returns strerror(errno), so call it on the thread that saw the error.
        mosquitto_strerror(code).map { String(cString: $0) } ?? "libmosquitto error \(code)"
    }
}
