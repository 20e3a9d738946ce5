import Daemon
import Hub
import MIDICore
import Plugins
import RenderCore
import Sequencer
import SetupViews
import SoundFont
import Synth

extension RenderSetup {
    /// `song` played through the graph of the patch at `path` as `serve --patch` would play
    /// it from `midihub:sequence` (`PatchRendering`), its LV2 plugins' work done at once; the
    /// lines about what cannot play offline go to standard error.
    /// - Throws: `CLIError` (exit 2): a bad patch (the patch reader's line), no source node
    ///   that takes the song, a SoundFont node with no font installed.
    /// - Thread: control.
    init(patch path: String, song: MIDIFile, sampleRate: Int, blockSize: Int) throws {
        let plugins = InstalledPlugins(synchronousWork: true, report: { printError($0) })
        let registry = NodeTypes.registry.with(plugins: plugins)
        let patch: Patch
        do throws(PatchError) {
            patch = try Patch.load(contentsOf: path, registry: registry)
        } catch {
            throw CLIError(error.description, fix: nil, exitCode: CLIError.badInput)
        }
        let font = try Self.font(for: patch)
        let catalog = NodeCatalog(bank: try PresetBankLoader.loadForCommandLine(override: nil), font: font?.file,
                                  plugins: plugins, report: { printError($0) })
        let rendering: PatchRendering
        do throws(PatchRenderError) {
            rendering = try PatchRendering(patch: patch, song: song, registry: registry, catalog: catalog,
                                           format: RenderFormat(sampleRate: Double(sampleRate), maxFrames: blockSize))
        } catch {
            throw CLIError("\(path): \(error.problem)", fix: error.fix, exitCode: CLIError.badInput)
        }
        for note in rendering.notes { printError("midihub: \(note)") }
        self.init(schedule: rendering.schedule, nodes: rendering.nodes, ids: rendering.ids, wiring: rendering.wiring, font: font)
    }

    /// The font the patch's SoundFont nodes play (as `serve` chooses it: `$MIDIHUB_SOUNDFONT`,
    /// then an installed General MIDI font), `nil` when it has none.
    /// - Throws: `CLIError`: no font installed (exit 2), an unreadable one.
    private static func font(for patch: Patch) throws -> (file: SoundFont, path: String)? {
        let players = patch.graph.nodes.filter { node in
            if case .unit(let descriptor) = node.body { descriptor == SoundFontNode.nodeDescriptor } else { false }
        }
        guard let first = players.first else { return nil }
        guard let path = InstrumentChoice.defaultFont() else {
            throw CLIError("node '\(first.id)' plays a SoundFont and none is installed",
                           fix: "install one (apt-get install fluid-soundfont-gm) or set MIDIHUB_SOUNDFONT=FILE",
                           exitCode: CLIError.badInput)
        }
        do {
            return (try SoundFont.open(path), path)
        } catch {
            throw CLIError(error)
        }
    }
}
