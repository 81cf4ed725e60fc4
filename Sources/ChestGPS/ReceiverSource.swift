import ChestCore
import FoundationEssentials
import Glibc

/// Places the device gpsd names: a USB receiver (its tty's parent in /sys has a USB vendor and product), a
/// pty, a network feed, or unknown (docs/SECURITY.md "Hardware trust and time").
package struct ReceiverSource: Sendable {
    /// The root of sysfs: /sys, or a tree a test made.
    package let sysfsRoot: String

    package init(sysfsRoot: String = "/sys") {
        self.sysfsRoot = sysfsRoot
    }

    /// The source of the device at `path`, as gpsd's DEVICE report describes it.
    package func identify(path: String, driver: String?, subtype: String?) -> FixSource {
        var source = FixSource(
            kind: FixSource.kind(ofPath: path), path: path, driver: driver.nonEmpty,
            subtype: subtype.nonEmpty)
        guard source.kind == .unknown, path.hasPrefix("/dev/") else { return source }
        // A udev symlink such as /dev/gps0 names the same tty as /dev/ttyACM0.
        let name = URL(fileURLWithPath: path).resolvingSymlinksInPath().lastPathComponent
        guard let usb = usbParent(ofTTY: name) else { return source }
        source.kind = .usb
        source.vendorID = read(usb, "idVendor")
        source.productID = read(usb, "idProduct")
        source.product = read(usb, "product")
        source.manufacturer = read(usb, "manufacturer")
        source.serial = read(usb, "serial")
        return source
    }

    /// The USB device directory above a tty, if any: the nearest ancestor of its `device` with an idVendor.
    func usbParent(ofTTY name: String) -> String? {
        let link = "\(sysfsRoot)/class/tty/\(name)/device"
        guard FileManager.default.fileExists(atPath: link) else { return nil }
        var directory = URL(fileURLWithPath: link).resolvingSymlinksInPath()
        let root = URL(fileURLWithPath: sysfsRoot).resolvingSymlinksInPath().path
        while directory.path.hasPrefix(root), directory.path != root {
            if FileManager.default.fileExists(atPath: directory.path + "/idVendor") { return directory.path }
            directory.deleteLastPathComponent()
        }
        return nil
    }

    private func read(_ directory: String, _ file: String) -> String? {
        (try? String(contentsOfFile: directory + "/" + file, encoding: .utf8))?
            .trimmed().nonEmpty
    }
}

extension Optional<String> {
    fileprivate var nonEmpty: String? { self?.isEmpty == false ? self : nil }
}

extension String {
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
