import ALSA
import Plugins
import ArgumentParser
import Control
import SetupViews

/// Tab completion of port and node names in the shell scripts that
/// `midihub --generate-completion-script bash|zsh|fish` prints: the shell runs midihub to
/// ask, and the running daemon answers; without a daemon, ports come from the ALSA
/// sequencer itself and nodes from nowhere (no candidates).
enum NameCompletion {
    /// Ports that can play `role`: their addresses (`20:0`, `jack:…`), then client and port names.
    static func ports(_ role: SequencerSession.PortRole) -> CompletionKind {
        .custom { _, _, prefix in matching(prefix, in: portNames(role)) }
    }

    /// The daemon's node ids.
    static let nodes = CompletionKind.custom { _, _, prefix in
        matching(prefix, in: (try? askDaemon { try $0.nodes() })?.map(\.id) ?? [])
    }

    /// The installed LV2 plugins' URIs.
    static let plugins = CompletionKind.custom { _, _, prefix in
        matching(prefix, in: PluginCatalog().plugins.map(\.uri))
    }

    private static func portNames(_ role: SequencerSession.PortRole) -> [String] {
        let ports = (try? askDaemon { try $0.ports() })
            ?? (try? SequencerSession(name: "midihub completion").otherPorts().map { PortSummary($0) }) ?? []
        let fitting = ports.filter { port in
            port.direction == .duplex || port.direction == (role == .source ? .source : .destination)
        }
        return fitting.map(\.address) + fitting.map(\.clientName) + fitting.map(\.portName)
    }

    /// The daemon's answer, quickly: a shell waits on it.
    private static func askDaemon<Value>(_ body: (ControlClient) throws -> Value) throws -> Value {
        let client = try ControlClient(timeout: 1)
        _ = try client.hello(client: "midihub completion")
        return try body(client)
    }

    /// The names that start with `prefix` (ignoring case, as port names resolve), each once, in order.
    static func matching(_ prefix: String, in names: [String]) -> [String] {
        var seen: Set<String> = []
        return names.filter { $0.lowercased().hasPrefix(prefix.lowercased()) && seen.insert($0).inserted }
    }
}
