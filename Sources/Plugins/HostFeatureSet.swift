internal import CLilv
import Glibc
import RenderCore

/// The features midihub hands one plugin instance (`HostFeatures.provided`): `urid:map` and
/// `unmap`, `options` (the sample rate, the block lengths, the atom buffers' size),
/// `buf-size:boundedBlockLength` (and `fixedBlockLength`, `powerOf2BlockLength`), `log`, `worker:schedule` and
/// `state:mapPath`, `makePath`, `freePath`, as the null-terminated array
/// `lilv_plugin_instantiate` takes. Everything it points at stays at its address until the
/// set is freed, after the instance.
///
/// - Thread: control (made and freed there; the plugin reads it from any of its threads).
final class HostFeatureSet {
    /// The array to pass to the plugin.
    let features: UnsafeMutablePointer<UnsafePointer<LV2_Feature>?>
    private let entries: UnsafeMutablePointer<LV2_Feature>
    private let uris: [UnsafeMutablePointer<CChar>]
    private let options: UnsafeMutablePointer<LV2_Options_Option>
    private let values: UnsafeMutableRawPointer
    private let log: UnsafeMutablePointer<LV2_Log_Log>
    private let logSink: UnsafeMutablePointer<MidihubLogSink>
    private let logger: PluginLog
    /// `state:mapPath`, `makePath` and `freePath` for the running instance.
    let paths: StatePaths

    /// The features for an instance rendering `format` (every block `format.maxFrames` long
    /// when `fixedBlocks`) with atom buffers of `sequenceSize` bytes, mapping through `urids`,
    /// logging to `logger`, its work done by `worker`.
    init(format: RenderFormat, sequenceSize: Int, fixedBlocks: Bool, urids: URIDMap, logger: PluginLog, worker: PluginWorker,
         paths: StatePaths) {
        self.logger = logger
        self.paths = paths
        // The options' values: the rate as a float, the block lengths and the buffer size as ints.
        values = .allocate(byteCount: 5 * 4, alignment: 8)
        values.storeBytes(of: Float(format.sampleRate), toByteOffset: 0, as: Float.self)
        // A plugin that requires fixed blocks runs only whole ones (`LV2Node`): its minimum is the maximum.
        for (slot, value) in [fixedBlocks ? format.maxFrames : 1, format.maxFrames, format.maxFrames, sequenceSize].enumerated() {
            values.storeBytes(of: Int32(value), toByteOffset: 4 * (slot + 1), as: Int32.self)
        }
        let floatType = urids.id(of: LV2Vocabulary.atomFloat), intType = urids.id(of: LV2Vocabulary.atomInt)
        let keys = [LV2Vocabulary.sampleRate, LV2Vocabulary.minBlockLength, LV2Vocabulary.maxBlockLength,
                    LV2Vocabulary.nominalBlockLength, LV2Vocabulary.sequenceSize]
        options = .allocate(capacity: keys.count + 1)
        for (slot, key) in keys.enumerated() {
            options[slot] = LV2_Options_Option(context: LV2_OPTIONS_INSTANCE, subject: 0, key: urids.id(of: key), size: 4,
                                               type: slot == 0 ? floatType : intType,
                                               value: UnsafeRawPointer(values + 4 * slot))
        }
        options[keys.count] = LV2_Options_Option(context: LV2_OPTIONS_INSTANCE, subject: 0, key: 0, size: 0, type: 0, value: nil)

        logSink = .allocate(capacity: 1)
        logSink.initialize(to: MidihubLogSink(sink: { context, type, line in
            guard let context, let line else { return }
            Unmanaged<PluginLog>.fromOpaque(context).takeUnretainedValue().receive(line, type: type)
        }, context: Unmanaged.passUnretained(logger).toOpaque()))
        log = .allocate(capacity: 1)
        log.initialize(to: LV2_Log_Log())
        midihub_log_install(log, logSink)

        let data: [(String, UnsafeMutableRawPointer?)] = [
            (LV2Vocabulary.uridMap, UnsafeMutableRawPointer(urids.map)),
            (LV2Vocabulary.uridUnmap, UnsafeMutableRawPointer(urids.unmap)),
            (LV2Vocabulary.options, UnsafeMutableRawPointer(options)),
            (LV2Vocabulary.boundedBlockLength, nil),
            (LV2Vocabulary.fixedBlockLength, nil),
            (LV2Vocabulary.powerOf2BlockLength, nil),
            (LV2Vocabulary.log, UnsafeMutableRawPointer(log)),
            (LV2Vocabulary.workerSchedule, UnsafeMutableRawPointer(worker.schedule)),
            (LV2Vocabulary.stateMapPath, UnsafeMutableRawPointer(paths.mapPath)),
            (LV2Vocabulary.stateMakePath, UnsafeMutableRawPointer(paths.makePath)),
            (LV2Vocabulary.stateFreePath, UnsafeMutableRawPointer(paths.freePath)),
        ]
        uris = data.map { strdup($0.0) }
        entries = .allocate(capacity: data.count)
        features = .allocate(capacity: data.count + 1)
        for (slot, feature) in data.enumerated() {
            entries[slot] = LV2_Feature(URI: uris[slot], data: feature.1)
            features[slot] = UnsafePointer(entries + slot)
        }
        features[data.count] = nil
    }

    deinit {
        features.deallocate()
        entries.deallocate()
        uris.forEach { free($0) }
        options.deallocate()
        values.deallocate()
        log.deallocate()
        logSink.deallocate()
    }
}
