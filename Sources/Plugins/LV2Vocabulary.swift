/// The LV2 terms discovery reads, by URI, and the short names midihub prints for them
/// (`urid:map` for `http://lv2plug.in/ns/ext/urid#map`).
/// - Thread: any (constants).
enum LV2Vocabulary {
    static let core = "http://lv2plug.in/ns/lv2core#"
    static let audioPort = core + "AudioPort"
    static let controlPort = core + "ControlPort"
    static let cvPort = core + "CVPort"
    static let inputPort = core + "InputPort"
    static let outputPort = core + "OutputPort"
    static let integer = core + "integer"
    static let toggled = core + "toggled"
    static let enumeration = core + "enumeration"
    /// A port whose range and default are fractions of the sample rate.
    static let sampleRateProperty = core + "sampleRate"
    static let scalePoint = core + "scalePoint"
    static let value = "http://www.w3.org/1999/02/22-rdf-syntax-ns#value"
    static let atomPort = "http://lv2plug.in/ns/ext/atom#AtomPort"
    static let atomPath = "http://lv2plug.in/ns/ext/atom#Path"
    static let atomURID = "http://lv2plug.in/ns/ext/atom#URID"
    static let range = "http://www.w3.org/2000/01/rdf-schema#range"
    static let patchWritable = "http://lv2plug.in/ns/ext/patch#writable"
    static let patchMessage = "http://lv2plug.in/ns/ext/patch#Message"
    static let patchSet = "http://lv2plug.in/ns/ext/patch#Set"
    static let patchProperty = "http://lv2plug.in/ns/ext/patch#property"
    static let patchValue = "http://lv2plug.in/ns/ext/patch#value"
    static let atomSupports = "http://lv2plug.in/ns/ext/atom#supports"
    static let eventPort = "http://lv2plug.in/ns/ext/event#EventPort"
    static let midiEvent = "http://lv2plug.in/ns/ext/midi#MidiEvent"
    static let logarithmic = "http://lv2plug.in/ns/ext/port-props#logarithmic"
    static let unit = "http://lv2plug.in/ns/extensions/units#unit"
    static let unitSymbol = "http://lv2plug.in/ns/extensions/units#symbol"
    static let preset = "http://lv2plug.in/ns/ext/presets#Preset"
    static let label = "http://www.w3.org/2000/01/rdf-schema#label"
    static let minimumSize = "http://lv2plug.in/ns/ext/resize-port#minimumSize"

    // What the host gives a plugin it runs (`HostFeatureSet`) and writes into its atom ports.
    static let uridMap = "http://lv2plug.in/ns/ext/urid#map"
    static let uridUnmap = "http://lv2plug.in/ns/ext/urid#unmap"
    static let options = "http://lv2plug.in/ns/ext/options#options"
    static let boundedBlockLength = "http://lv2plug.in/ns/ext/buf-size#boundedBlockLength"
    static let fixedBlockLength = "http://lv2plug.in/ns/ext/buf-size#fixedBlockLength"
    static let powerOf2BlockLength = "http://lv2plug.in/ns/ext/buf-size#powerOf2BlockLength"
    static let log = "http://lv2plug.in/ns/ext/log#log"
    static let workerSchedule = "http://lv2plug.in/ns/ext/worker#schedule"
    static let workerInterface = "http://lv2plug.in/ns/ext/worker#interface"
    static let logError = "http://lv2plug.in/ns/ext/log#Error"
    static let logWarning = "http://lv2plug.in/ns/ext/log#Warning"
    static let sampleRate = "http://lv2plug.in/ns/ext/parameters#sampleRate"
    static let minBlockLength = "http://lv2plug.in/ns/ext/buf-size#minBlockLength"
    static let maxBlockLength = "http://lv2plug.in/ns/ext/buf-size#maxBlockLength"
    static let nominalBlockLength = "http://lv2plug.in/ns/ext/buf-size#nominalBlockLength"
    static let sequenceSize = "http://lv2plug.in/ns/ext/buf-size#sequenceSize"
    static let atomFloat = "http://lv2plug.in/ns/ext/atom#Float"
    static let atomInt = "http://lv2plug.in/ns/ext/atom#Int"
    static let atomDouble = "http://lv2plug.in/ns/ext/atom#Double"
    static let atomLong = "http://lv2plug.in/ns/ext/atom#Long"
    static let atomObject = "http://lv2plug.in/ns/ext/atom#Object"
    static let timePosition = "http://lv2plug.in/ns/ext/time#Position"
    static let loadDefaultState = "http://lv2plug.in/ns/ext/state#loadDefaultState"
    static let stateMapPath = "http://lv2plug.in/ns/ext/state#mapPath"
    static let stateMakePath = "http://lv2plug.in/ns/ext/state#makePath"
    static let stateFreePath = "http://lv2plug.in/ns/ext/state#freePath"
    static let atomSequence = "http://lv2plug.in/ns/ext/atom#Sequence"
    static let atomChunk = "http://lv2plug.in/ns/ext/atom#Chunk"

    /// `uri` as the LV2 specifications write it: `lv2:isLive`, `urid:map`, `units:db`;
    /// another vocabulary's URI whole.
    static func shortName(_ uri: String) -> String {
        if uri.hasPrefix(core) { return "lv2:" + uri.dropFirst(core.count) }
        for root in ["http://lv2plug.in/ns/ext/", "http://lv2plug.in/ns/extensions/"] where uri.hasPrefix(root) {
            let rest = uri.dropFirst(root.count)
            guard let hash = rest.firstIndex(of: "#") else { return String(rest) }
            return rest[..<hash] + ":" + rest[rest.index(after: hash)...]
        }
        return uri
    }
}
