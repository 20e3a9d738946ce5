import ArgumentParser
import Control
import SetupViews

/// `midihub scene [NAME]`: switches the running daemon to a scene, or lists the scenes.
struct SceneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scene",
        abstract: "Switch to a scene (a snapshot of parameter values), or list the scenes.",
        discussion: """
            With NAME, the running daemon sets every value the scene holds at once (held notes \
            go on sounding). Without, lists the scenes, the current one marked '*': the \
            daemon's, or the patch's with --patch. A program change switches scenes through a \
            mapping to 'scene.program' (docs/mappings.md#scenes).

            Examples:
              midihub scene --patch patches/controller-knobs.yaml
              midihub scene chorus
            """
    )

    @Argument(help: "The scene to switch to.")
    var name: String?

    @Option(help: "List this patch's scenes instead of the daemon's.")
    var patch: String?

    @Flag(help: "JSON: the scene switched to as one object, or the list (as scenes.list).")
    var json = false

    func validate() throws {
        if name != nil, patch != nil {
            throw ValidationError("a patch's scenes can be listed, not switched to (fix: drop --patch, or drop the name)")
        }
    }

    func run() throws {
        guard let name else {
            let scenes = try SetupCommandSupport.listing(patch, fromDaemon: { try $0.scenes() },
                                                         fromPatch: { MappingSummaries.scenes($0.scenes, current: nil) })
            if json { return try printJSON(scenes) }
            if scenes.isEmpty { print("no scenes (docs/mappings.md#scenes)") }
            for scene in scenes { print(MappingSummaries.line(scene)) }
            return
        }
        let scene = try SetupCommandSupport.askDaemon("switching scenes", client: "midihub scene") { try $0.switchScene(name) }
        if json { return try printJSON(object: scene) }
        print(MappingSummaries.line(scene))
    }
}
