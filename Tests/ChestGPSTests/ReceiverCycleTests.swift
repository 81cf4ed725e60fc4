import Testing

@testable import ChestGPS

/// The receiver's cycle as libgps hands it over: libgps 3.22 writes the DEVICE report's `"cycle":1.00` as a double
/// over `timespec_t`'s seconds, which read as an integer says an epoch every 4.6 × 10¹⁸ s (`status` and `read` said
/// so, and a streak bore 15 s gaps from a 1 Hz receiver).
@Suite struct ReceiverCycleTests {
    @Test func aCycleWrittenAsADoubleOverTheSecondsIsReadAsThatDouble() {
        #expect(GPSDConnection.cycle(seconds: Int64(bitPattern: 1.0.bitPattern), nanoseconds: 0) == 1.0)
        #expect(GPSDConnection.cycle(seconds: Int64(bitPattern: 5.0.bitPattern), nanoseconds: 0) == 5.0)
    }

    @Test func aTimespecIsReadAsOneAndNoneIsNil() {
        #expect(GPSDConnection.cycle(seconds: 1, nanoseconds: 0) == 1.0)
        #expect(GPSDConnection.cycle(seconds: 0, nanoseconds: 200_000_000) == 0.2)
        #expect(GPSDConnection.cycle(seconds: 0, nanoseconds: 0) == nil)
        #expect(GPSDConnection.cycle(seconds: Int64(bitPattern: 1e30.bitPattern), nanoseconds: 0) == nil)
    }
}
