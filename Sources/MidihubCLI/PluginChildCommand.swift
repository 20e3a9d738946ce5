import ALSA
import ArgumentParser
import Foundation
import Plugins

/// `midihub plugin-child`: the process an isolated plugin node runs its plugin in
/// (docs/plugins.md, "Isolated plugins"). Started by the daemon with the node's shared
/// memory and control socket as descriptors 3 and 4; not for users, so not listed.
struct PluginChildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugin-child",
        abstract: "The process an isolated LV2 plugin node runs in (started by the daemon).",
        shouldDisplay: false
    )

    func run() throws {
        let status = PluginChildHost.run(parent: getppid()) {
            // Just below the daemon's render thread, whose blocks it renders (a plugin that spins
            // then never takes a core the render thread waits for); a refusal changes nothing.
            _ = PCMRealtimePriority.requestForCurrentThread(priority: PCMRealtimePriority.defaultPriority - 1)
        }
        throw ExitCode(status)
    }
}
