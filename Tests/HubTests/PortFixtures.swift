@testable import Hub

/// Ports as the daemon would describe them, for rule and reconciler tests.
enum PortFixtures {
    static func port(_ client: Int, _ port: Int, _ clientName: String, _ portName: String,
                     _ portClass: PortClass = .app, _ direction: PortDirection = .duplex,
                     usbPath: String? = nil, cardLongName: String? = nil, serial: String? = nil) -> PortDescriptor {
        PortDescriptor(address: PortAddress(client: client, port: port), clientName: clientName, portName: portName,
                       portClass: portClass, direction: direction, cardLongName: cardLongName, usbPath: usbPath,
                       serial: serial)
    }

    static let launchkey = port(24, 0, "Launchkey MK3 25", "Launchkey MK3 25 MIDI In", .hardware, .duplex,
                                usbPath: "usb-0000:00:14.0-2")
    static let hubIn = port(128, 0, "midihub", "in", .app, .input)
    static let hubOut = port(128, 1, "midihub", "out", .app, .output)
    static let fluid = port(129, 0, "FLUID Synth (1234)", "Synth input port (1234:0)", .app, .input)
    static let vmpk = port(130, 0, "VMPK Output", "out", .app, .output)
}
