import ALSA
import ArgumentParser

/// `midihub ports`: every sequencer client and port, like `aconnect -l`.
struct PortsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ports",
        abstract: "List every ALSA sequencer port with direction, kind, card and connections.",
        discussion: """
            direction: 'source' ports send MIDI (others read from them), 'destination' ports \
            receive it, 'duplex' ports do both. kind: 'hardware' for the kernel's ports \
            (USB MIDI, virtual raw MIDI, Midi Through, System), 'app' for programs.

            --json prints one array of objects:
              {"address":"20:0","client":20,"port":0,"clientName":"...","portName":"...",
               "direction":"duplex","kind":"hardware","card":1,"cardName":"...",
               "connectedTo":["128:0"],"connectedFrom":[]}

            Examples:
              midihub ports
              midihub ports --json | jq '.[] | select(.direction != "destination") | .address'
            """
    )

    @Flag(help: "Print a JSON array instead of a table.")
    var json = false

    func run() throws {
        let ports = try SequencerSession().otherPorts()
        print(json ? Self.json(ports) : Self.table(ports))
    }

    static func json(_ ports: [SeqPortInfo]) -> String {
        let objects = ports.map { port in
            JSONObject([
                ("address", .string(port.address.description)),
                ("client", .int(Int(port.address.client))),
                ("port", .int(Int(port.address.port))),
                ("clientName", .string(port.clientName)),
                ("portName", .string(port.portName)),
                ("direction", .string(port.direction.rawValue)),
                ("kind", .string(port.isHardware ? "hardware" : "app")),
                ("card", port.card.map { .int($0) } ?? .null),
                ("cardName", port.cardName.map { .string($0) } ?? .null),
                ("connectedTo", .array(port.connectedTo.map { .string($0.description) })),
                ("connectedFrom", .array(port.connectedFrom.map { .string($0.description) })),
            ])
        }
        return objects.isEmpty ? "[]" : "[\n  " + objects.map(\.rendered).joined(separator: ",\n  ") + "\n]"
    }

    static func table(_ ports: [SeqPortInfo]) -> String {
        let header = ["ADDRESS", "DIRECTION", "KIND", "CLIENT", "PORT", "CARD"]
        let rows = ports.map { port in
            [port.address.description, port.direction.rawValue, port.isHardware ? "hardware" : "app",
             port.clientName, port.portName,
             port.card.map { "\($0)" + (port.cardName.map { " \($0)" } ?? "") } ?? ""]
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            zip(cells, widths).map { $0.padding(to: $1) }.joined(separator: "  ").trailingSpacesRemoved
        }
        var lines = [line(header)]
        for (port, row) in zip(ports, rows) {
            lines.append(line(row))
            var links: [String] = []
            if !port.connectedTo.isEmpty { links.append("to " + port.connectedTo.map(\.description).joined(separator: ", ")) }
            if !port.connectedFrom.isEmpty { links.append("from " + port.connectedFrom.map(\.description).joined(separator: ", ")) }
            if !links.isEmpty { lines.append(String(repeating: " ", count: widths[0] + 2) + "connected " + links.joined(separator: "; ")) }
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
