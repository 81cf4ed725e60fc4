import ChestIO
import ChestTestSupport
import Testing

/// The command line's typed errors keep the sentences users read.
@Suite struct ControlClientTests {
    @Test func errorsReadAsBefore() throws {
        let socket = try makeTemporaryDirectory("chest-client").path + "/none.sock"
        #expect(
            ControlClientError.notRunning(socket: "/s").description
                == "chestd is not running (nothing answers on /s); start it with `chestd &` or `systemctl --user start chestd`"
        )
        #expect(ControlClientError.refused("wrong PIN").description == "wrong PIN")
        #expect(throws: ControlClientError.notRunning(socket: socket)) {
            try ControlClient(socketPath: socket)
        }
    }
}
