import ChestCore
import ChestGPS
import ChestTestSupport
import Foundation
import Testing

/// Placing the device gpsd names, with a /sys tree faked in a temporary directory (no dongle here).
struct ReceiverSourceTests {
    /// A u-blox 7 on USB bus 1, port 1, as /sys shows it: the tty's `device` is the USB interface, whose
    /// parent directory is the USB device with idVendor and idProduct.
    static func fakeSysfs() throws -> URL {
        let root = try makeTemporaryDirectory("sysfs")
        let usb = root.appendingPathComponent("devices/pci0000:00/0000:00:14.0/usb1/1-1")
        let interface = usb.appendingPathComponent("1-1:1.0")
        try FileManager.default.createDirectory(
            at: interface.appendingPathComponent("tty/ttyACM0"),
            withIntermediateDirectories: true)
        for (file, text) in [
            ("idVendor", "1546\n"), ("idProduct", "01a7\n"), ("product", "u-blox 7 - GPS/GNSS Receiver\n"),
            ("manufacturer", "u-blox AG - www.u-blox.com\n"),
        ] {
            try Data(text.utf8).write(to: usb.appendingPathComponent(file))
        }
        let tty = root.appendingPathComponent("class/tty/ttyACM0")
        try FileManager.default.createDirectory(at: tty, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: tty.appendingPathComponent("device").path,
            withDestinationPath: "../../../devices/pci0000:00/0000:00:14.0/usb1/1-1/1-1:1.0")
        // A built-in UART: a tty with no USB parent.
        let uart = root.appendingPathComponent("devices/platform/serial8250/tty/ttyS0")
        try FileManager.default.createDirectory(at: uart, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("class/tty/ttyS0"),
            withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("class/tty/ttyS0/device").path,
            withDestinationPath: "../../../devices/platform/serial8250")
        return root
    }

    @Test func aUSBReceiverIsPlacedWithItsVendorAndProduct() throws {
        let root = try Self.fakeSysfs()
        defer { try? FileManager.default.removeItem(at: root) }
        let source = ReceiverSource(sysfsRoot: root.path).identify(path: "/dev/ttyACM0", driver: "u-blox", subtype: "")
        #expect(
            source
                == FixSource(
                    kind: .usb, path: "/dev/ttyACM0", driver: "u-blox", vendorID: "1546",
                    productID: "01a7", product: "u-blox 7 - GPS/GNSS Receiver",
                    manufacturer: "u-blox AG - www.u-blox.com"))
        #expect(source.description == "u-blox 7 - GPS/GNSS Receiver (1546:01a7) at /dev/ttyACM0")
        var trust = TrustAssessor()
        trust.receiver(source)
        #expect(trust.level == .hardware)
    }

    @Test func ptysNetworkFeedsAndOtherTTYsAreNotUSB() throws {
        let root = try Self.fakeSysfs()
        defer { try? FileManager.default.removeItem(at: root) }
        let receivers = ReceiverSource(sysfsRoot: root.path)
        #expect(receivers.identify(path: "/dev/pts/4", driver: "NMEA0183", subtype: nil).kind == .pty)
        #expect(receivers.identify(path: "tcp://192.168.1.5:2947", driver: nil, subtype: nil).kind == .network)
        #expect(receivers.identify(path: "udp://0.0.0.0:5000", driver: nil, subtype: nil).kind == .network)
        #expect(receivers.identify(path: "/dev/ttyS0", driver: "NMEA0183", subtype: nil).kind == .unknown)
        #expect(receivers.identify(path: "/dev/ttyUSB9", driver: nil, subtype: nil).kind == .unknown)
    }
}
