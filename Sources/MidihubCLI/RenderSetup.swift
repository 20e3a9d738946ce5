import MIDICore
import RenderCore
import Sequencer
import SoundFont

/// What `render` plays a song through, and the song laid out for it: the instrument's graph
/// (`InstrumentChoice`, the song's events straight to the instrument), or a patch's graph
/// (`--patch`: `RenderSetup+Patch`).
///
/// - Thread: control (made before rendering; the nodes are then the renderer's).
struct RenderSetup {
    let schedule: RenderSchedule
    let nodes: [any Node]
    /// The id the schedule's events address each node by (`nil`: their indices).
    let ids: [UInt16]?
    let wiring: AudioWiring
    /// The SoundFont a node plays and its path, if one does.
    let font: (file: SoundFont, path: String)?

    /// Whether the font's file shrank or went while it played: what was cut off sounded as
    /// silence (`SoundFontSampleData.fileChanged`).
    /// - Thread: control.
    var fontFileChanged: Bool { font?.file.sampleData.fileChanged ?? false }

    /// `song` played by `instrument` in its standard graph (`StandardGraph`).
    /// - Thread: control.
    init(_ instrument: InstrumentChoice, song: MIDIFile, sampleRate: Int) {
        let graph = instrument.graph
        self.init(schedule: RenderSchedule(file: song, sampleRate: Double(sampleRate)), nodes: graph.nodes, ids: nil,
                  wiring: graph.wiring, font: instrument.font)
    }

    /// - Thread: control.
    init(schedule: RenderSchedule, nodes: [any Node], ids: [UInt16]?, wiring: AudioWiring, font: (file: SoundFont, path: String)?) {
        self.schedule = schedule
        self.nodes = nodes
        self.ids = ids
        self.wiring = wiring
        self.font = font
    }
}
