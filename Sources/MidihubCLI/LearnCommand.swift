import ArgumentParser
import Control
import SetupViews

/// `midihub learn NODE PARAMETER`: binds the next control moved to a parameter (MIDI learn).
struct LearnCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "learn",
        abstract: "Map the next control you move to a parameter (MIDI learn).",
        discussion: """
            Asks the running daemon to watch what reaches midihub:in: the first note, knob, \
            fader, encoder or pad you move becomes a mapping to NODE's PARAMETER over its \
            whole range, replacing the mappings that moved only that parameter. It tells a \
            14-bit pair, an NRPN and a relative encoder from a plain controller by what they \
            send (turn an encoder a few steps). Prints the mapping; saved with the state. \
            Ctrl-C cancels. 'transport tempo' learns the tempo.

            Examples:
              midihub learn synth 'master gain'
              midihub learn transport tempo --seconds 10 --json
            """
    )

    @Argument(help: "The node (see 'midihub nodes'), or 'transport'.", completion: NameCompletion.nodes)
    var node: String

    @Argument(help: "The parameter, e.g. 'brightness' or 'master gain'.")
    var parameter: String

    @Option(help: "How long to wait for a control to move (1…600 s).")
    var seconds: Double = 30

    @Flag(help: "Print the mapping as one JSON object (as in mappings.list).")
    var json = false

    func validate() throws {
        guard (1...600).contains(seconds) else { throw ValidationError("--seconds must lie in 1…600") }
    }

    func run() throws {
        SignalTrap.install()
        let mapping = try SetupCommandSupport.askDaemon("learning", client: "midihub learn", timeout: 10) { try learned($0) }
        if json {
            try printJSON(object: mapping)
        } else {
            print(MappingSummaries.line(mapping))
        }
    }

    /// Arms learning and waits for its outcome, cancelling it on Ctrl-C.
    private func learned(_ client: ControlClient) throws -> MappingSummary {
        let events = try client.subscribe(SubscriptionFilter(events: [.mappingLearned, .learnEnded]))
        _ = try client.request(.learn(LearnRequest(node: node, parameter: parameter, seconds: seconds)))
        printError("midihub: move a control for \(node).\(parameter) within \(Int(seconds)) s")
        while true {
            if SignalTrap.caught != nil {
                _ = try client.request(.cancelLearn)
                throw CLIError("learning cancelled", fix: nil)
            }
            switch try nextEvent(events) {
            case .mappingLearned(let mapping)??:
                return mapping
            case .learnEnded(.timedOut)??:
                throw CLIError("no control moved within \(Int(seconds)) s",
                               fix: "check with 'midihub monitor' that the controller reaches midihub:in, then learn again")
            case .learnEnded(.cancelled)??:
                throw CLIError("learning was cancelled (another learn began)", fix: nil)
            case .some(nil):
                throw CLIError("the daemon closed the connection while learning", fix: "check the daemon's log")
            default:
                continue
            }
        }
    }

    /// The next event within a quarter second (`nil`: none came yet; `.some(nil)`: the daemon closed).
    private func nextEvent(_ events: ControlSubscription) throws(ControlClientError) -> ControlEvent?? {
        do {
            return .some(try events.next(timeout: 0.25))
        } catch {
            if case .timedOut = error { return nil }
            throw error
        }
    }
}
