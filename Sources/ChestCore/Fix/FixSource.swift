/// Where chestd's fixes come from, as gpsd's DEVICE report and the system describe the receiver
/// (docs/SECURITY.md "Hardware trust and time").
package struct FixSource: Hashable, Sendable, Codable {
    /// What kind of link feeds gpsd.
    package enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// A tty whose parent in /sys is a USB device: a receiver plugged in.
        case usb
        /// A pseudo-terminal: gpsfake or another program writing NMEA.
        case pty
        /// A tcp://, udp:// or gpsd:// feed: another machine's receiver, or anything at all.
        case network
        /// A device gpsd named that chestd cannot place.
        case unknown
    }

    package var kind: Kind
    /// gpsd's device path, such as /dev/ttyACM0.
    package var path: String
    /// gpsd's driver ("u-blox", "NMEA0183"…), once gpsd identified the receiver.
    package var driver: String?
    /// gpsd's subtype: the receiver's hardware or firmware version, when it says.
    package var subtype: String?
    /// The USB vendor and product IDs, four hex digits each.
    package var vendorID: String?
    package var productID: String?
    /// The USB product and manufacturer names and serial number, when the device has them.
    package var product: String?
    package var manufacturer: String?
    package var serial: String?
    /// gpsd's `cycle`: the seconds between the receiver's epochs as gpsd knows them (1 for most NMEA receivers,
    /// whatever their real pace), when it gave one (docs/DESIGN.md "Lock rules").
    package var cycle: Double?

    package init(
        kind: Kind, path: String, driver: String? = nil, subtype: String? = nil, vendorID: String? = nil,
        productID: String? = nil, product: String? = nil, manufacturer: String? = nil, serial: String? = nil
    ) {
        self.kind = kind
        self.path = path
        self.driver = driver
        self.subtype = subtype
        self.vendorID = vendorID
        self.productID = productID
        self.product = product
        self.manufacturer = manufacturer
        self.serial = serial
    }

    /// The kind a path alone tells: a pty, a network feed, or a tty still to be placed in /sys (`unknown`).
    package static func kind(ofPath path: String) -> Kind {
        if path.hasPrefix("/dev/pts/") || path.hasPrefix("/dev/ptmx") { return .pty }
        if path.contains("://") { return .network }
        return .unknown
    }

    /// "u-blox 7 (1546:01a7) at /dev/ttyACM0", "NMEA0183 at /dev/pts/3": what `status` shows.
    package var description: String {
        let model = product ?? driver ?? "receiver"
        let usb = vendorID.map { vendor in " (\(vendor):\(productID ?? "????"))" } ?? ""
        return "\(model)\(usb) at \(path)"
    }
}
