/// Selects ports by class and by client and port name patterns, or by the USB device they
/// belong to.
///
/// Text form: `[hardware:|app:|any:]PATTERN`, where PATTERN is `*`, or `"client:port"` (quoted or bare),
/// each half a ``NamePattern``; a missing port half means `*`. Examples: `hardware:*`,
/// `"Launchkey*:*"`, `app:"/FLUID.*/:*"`, `24:0`. Or `usb:"DEVICE:port"` / `serial:"DEVICE:port"`,
/// where DEVICE is a pattern on the USB path (`usb-1-2.4`, the socket) or the USB serial number
/// instead of the client name: two controllers with the same name told apart.
///
/// - Thread: any (a plain value).
public struct PortSelector: Hashable, Sendable, CustomStringConvertible {
    /// `nil` matches both classes.
    public var portClass: PortClass?
    public var client: NamePattern
    public var port: NamePattern
    /// When set, the USB device the port must belong to (`client` is then `*`).
    public var device: DeviceMatch?

    public init(portClass: PortClass? = nil, client: NamePattern = .any, port: NamePattern = .any,
                device: DeviceMatch? = nil) {
        self.portClass = portClass
        self.client = client
        self.port = port
        self.device = device
    }

    /// Every port of every class.
    public static let any = PortSelector()

    public func matches(_ descriptor: PortDescriptor) -> Bool {
        if let portClass, portClass != descriptor.portClass { return false }
        if let device, !device.matches(descriptor) { return false }
        return client.matches(descriptor.clientName, number: descriptor.address.client)
            && port.matches(descriptor.portName, number: descriptor.address.port)
    }

    /// The same selector with the port half dropped: every port of the client (or device) it names.
    public var everyPort: PortSelector { PortSelector(portClass: portClass, client: client, device: device) }

    public var description: String {
        if let device {
            let body = port.isAny ? device.pattern.description : "\(device.pattern):\(port)"
            return device.key.rawValue + ":\"" + body.replacingQuotes() + "\""
        }
        let classPrefix = portClass.map { "\($0.rawValue):" } ?? ""
        if client.isAny && port.isAny { return classPrefix + "*" }
        let body = port.isAny ? client.description : "\(client):\(port)"
        return classPrefix + "\"" + body.replacingQuotes() + "\""
    }
}

/// A USB device named by what stays the same when it is replugged: the socket it is in, or
/// its serial number (see ``PortDescriptor/identity``).
///
/// - Thread: any (a plain value).
public struct DeviceMatch: Hashable, Sendable {
    public enum Key: String, Hashable, Sendable, CaseIterable {
        /// The USB path, `usb-<bus>-<port path>`.
        case usb
        /// The USB serial number.
        case serial
    }

    public var key: Key
    public var pattern: NamePattern

    public init(key: Key, pattern: NamePattern) {
        self.key = key
        self.pattern = pattern
    }

    /// Whether `descriptor` belongs to the device; a port of no USB device never does.
    public func matches(_ descriptor: PortDescriptor) -> Bool {
        let value = switch key {
        case .usb: descriptor.usbPath
        case .serial: descriptor.serial
        }
        guard let value, !value.isEmpty else { return false }
        return pattern.matches(value)
    }
}

extension PortSelector {
    /// Parses the text form (see the type's documentation).
    /// - Throws: ``SelectorSyntaxError`` with the offset (in characters) of the problem within `text`.
    /// - Thread: any.
    public init(parsing text: String) throws(SelectorSyntaxError) {
        var rest = Substring(text)
        var portClass: PortClass?
        var deviceKey: DeviceMatch.Key?
        if let (prefix, value) = Self.classPrefixes.first(where: { rest.hasPrefix($0.0) }) {
            portClass = value
            rest = rest.dropFirst(prefix.count)
        } else if let key = DeviceMatch.Key.allCases.first(where: { rest.hasPrefix($0.rawValue + ":") }) {
            portClass = .hardware
            deviceKey = key
            rest = rest.dropFirst(key.rawValue.count + 1)
        }
        let bodyOffset = text.count - rest.count
        let body: String
        if rest.hasPrefix("\"") {
            guard let unquoted = rest.unquoted() else {
                throw SelectorSyntaxError(offset: bodyOffset, reason: "malformed quoted name \(rest)",
                                          fix: "close the name with a double quote (write \\\" for a quote inside)")
            }
            body = unquoted
        } else {
            body = String(rest)
        }
        guard !body.isEmpty else {
            throw SelectorSyntaxError(offset: bodyOffset, reason: "empty port selector",
                                      fix: "write a pattern like \"Launchkey*:*\", hardware:*, 24:0 or serial:\"A1B2C3\"")
        }
        let (clientText, portText) = Self.splitClientPort(body)
        do {
            let first = try NamePattern(parsing: clientText)
            let port = try portText.map { text throws(NamePatternError) in try NamePattern(parsing: text) } ?? .any
            if let deviceKey {
                self.init(portClass: portClass, port: port, device: DeviceMatch(key: deviceKey, pattern: first))
            } else {
                self.init(portClass: portClass, client: first, port: port)
            }
        } catch {
            throw SelectorSyntaxError(offset: bodyOffset, reason: "invalid regular expression /\(error.pattern)/: \(error.reason)",
                                      fix: "correct the expression, or use a glob with * and ?")
        }
    }

    private static let classPrefixes: [(String, PortClass?)] = [("hardware:", .hardware), ("app:", .app), ("any:", nil)]

    /// Splits at the first `:` after a leading `/regex/` client pattern (if any).
    private static func splitClientPort(_ body: String) -> (String, String?) {
        let chars = Array(body)
        var start = 0
        if chars.first == "/" {
            var index = 1
            while index < chars.count, chars[index] != "/" { index += chars[index] == "\\" ? 2 : 1 }
            start = min(index + 1, chars.count)
        }
        guard let colon = chars[start...].firstIndex(of: ":") else { return (body, nil) }
        return (String(chars[..<colon]), String(chars[(colon + 1)...]))
    }
}

/// A port selector's text could not be parsed.
/// - Thread: any (a plain value).
public struct SelectorSyntaxError: Error, Hashable, Sendable {
    /// Character offset within the selector text.
    public var offset: Int
    public var reason: String
    public var fix: String
}

/// - Thread: any (a plain value).
extension StringProtocol {
    /// `"` escaped as `\"` for a quoted name.
    func replacingQuotes() -> String { String(self).replacing("\"", with: "\\\"") }

    /// The text between a leading and a trailing quote, with `\"` unescaped; `nil` if not exactly one quoted string.
    func unquoted() -> String? {
        guard first == "\"" else { return nil }
        var out = ""
        var escaping = false
        for (offset, c) in dropFirst().enumerated() {
            if escaping {
                if c != "\"" { out.append("\\") }
                out.append(c)
                escaping = false
            } else if c == "\\" {
                escaping = true
            } else if c == "\"" {
                return offset == count - 2 ? out : nil
            } else {
                out.append(c)
            }
        }
        return nil
    }
}
