import ALSA
import ArgumentParser
import Control

/// `midihub ports`: every sequencer client and port, like `aconnect -l`.
struct PortsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ports",
        abstract: "List every ALSA sequencer port with direction, kind, card and connections.",
        discussion: """
            direction: 'source' ports send MIDI (others read from them), 'destination' ports \
            receive it, 'duplex' ports do both. kind: 'hardware' for the kernel's ports \
            (USB MIDI, virtual raw MIDI, Midi Through, System), 'app' for programs.

            A USB device's port has a 'device' line with its USB path and serial number, \
            written as the selectors that name it in rules and patches (usb:"usb-1-2", \
            serial:"A1B2C3"): they tell two controllers of the same name apart.

            --json prints an array of the control protocol's port objects (ports.list), one \
            per line, keys sorted, absent values null; a keyboard (wrapped here):
              {"address":"20:0","card":1,"cardName":"VirMIDI","client":20,
               "clientName":"Virtual Raw MIDI 1-0","connectedFrom":[],"connectedTo":[],
               "direction":"duplex","kind":"hardware","port":0,"portName":"VirMIDI 1-0",
               "serial":null,"usbPath":null},

            Examples:
              midihub ports
              midihub ports --json | jq '.[] | select(.direction != "destination") | .address'
            """
    )

    @Flag(help: "Print a JSON array instead of a table.")
    var json = false

    func run() throws {
        let ports = try SequencerSession().otherPorts()
        let cards = Self.cardInfo(of: ports)
        if json {
            try printJSON(ports.map { PortSummary($0, card: $0.card.flatMap { cards[$0] }) })
        } else {
            print(Self.table(ports, cards: cards))
        }
    }

    /// What Linux tells about each card the ports belong to (USB path and serial).
    static func cardInfo(of ports: [SeqPortInfo]) -> [Int: SoundCardInfo] {
        Dictionary(uniqueKeysWithValues: Set(ports.compactMap(\.card)).map { ($0, SoundCardInfo.read(card: $0)) })
    }

    static func table(_ ports: [SeqPortInfo], cards: [Int: SoundCardInfo] = [:]) -> String {
        let header = ["ADDRESS", "DIRECTION", "KIND", "CLIENT", "PORT", "CARD"]
        let rows = ports.map { port in
            [port.address.description, port.direction.rawValue, port.isHardware ? "hardware" : "app",
             port.clientName, port.portName,
             port.card.map { "\($0)" + (port.cardName.map { " \($0)" } ?? "") } ?? ""]
        }
        let table = TextTable(header: header, rows: rows)
        var lines = [table.line(header)]
        for (port, row) in zip(ports, rows) {
            lines.append(table.line(row))
            let indent = String(repeating: " ", count: table.widths[0] + 2)
            if let card = port.card.flatMap({ cards[$0] }), card.usbPath != nil || card.serial != nil {
                let usb = [card.usbPath.map { "usb:\"\($0)\"" }, card.serial.map { "serial:\"\($0)\"" }]
                lines.append(indent + "device " + usb.compactMap { $0 }.joined(separator: ", "))
            }
            var links: [String] = []
            if !port.connectedTo.isEmpty { links.append("to " + port.connectedTo.map(\.description).joined(separator: ", ")) }
            if !port.connectedFrom.isEmpty { links.append("from " + port.connectedFrom.map(\.description).joined(separator: ", ")) }
            if !links.isEmpty { lines.append(indent + "connected " + links.joined(separator: "; ")) }
        }
        return lines.joined(separator: "\n")
    }
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    var trailingSpacesRemoved: String {
        String(reversed().drop { $0 == " " }.reversed())
    }
}
