import Foundation

/// What Linux tells about a sound card beyond its number: the long name (from
/// `/proc/asound/cards`), and for USB devices the USB path and serial number (from the
/// `/sys/class/sound/cardN/device` symlink). These make a device's identity survive
/// renumbering when it is replugged.
///
/// - Thread: any (a plain value; reading runs on the thread that asks).
public struct SoundCardInfo: Hashable, Sendable {
    public var longName: String?
    /// `usb-<bus>-<port path>` (e.g. `usb-1-2.4`): the physical socket the device is in.
    public var usbPath: String?
    public var serial: String?

    public init(longName: String? = nil, usbPath: String? = nil, serial: String? = nil) {
        self.longName = longName
        self.usbPath = usbPath
        self.serial = serial
    }

    /// Reads card `card`'s details below `root` (`/` on a real system; tests give a fake tree).
    public static func read(card: Int, root: String = "/") -> SoundCardInfo {
        let base = root.hasSuffix("/") ? root : root + "/"
        var info = SoundCardInfo()
        if let cards = try? String(contentsOfFile: base + "proc/asound/cards", encoding: .utf8) {
            info.longName = longName(card: card, in: cards)
        }
        let device = URL(fileURLWithPath: base + "sys/class/sound/card\(card)/device").resolvingSymlinksInPath().path
        if let usbDevice = usbDeviceDirectory(device) {
            info.usbPath = "usb-" + (usbDevice as NSString).lastPathComponent
            info.serial = (try? String(contentsOfFile: usbDevice + "/serial", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
            if info.serial?.isEmpty == true { info.serial = nil }
        }
        return info
    }

    /// The long name of `card` in the text of `/proc/asound/cards`: the indented line after
    /// ` N [id   ]: driver - short name`.
    static func longName(card: Int, in cards: String) -> String? {
        let lines = cards.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("\(card) ["), index + 1 < lines.count else { continue }
            let name = lines[index + 1].trimmingCharacters(in: .whitespaces)
            return name.isEmpty ? nil : name
        }
        return nil
    }

    /// For a USB interface directory (`…/usb1/1-2/1-2:1.0`), its device directory (`…/usb1/1-2`).
    static func usbDeviceDirectory(_ path: String) -> String? {
        let interface = (path as NSString).lastPathComponent
        guard path.contains("/usb"), interface.contains(":") else { return nil }
        return (path as NSString).deletingLastPathComponent
    }
}
