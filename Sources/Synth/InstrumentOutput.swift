import RenderCore

/// The output values every instrument node publishes (`SynthNode.Output`,
/// `SoundFontNode.Output`): the voices sounding or fading, and the block's peak levels.
/// - Thread: any (the values are stored on render, read anywhere through `OutputValues`).
public enum InstrumentOutput: Int, CaseIterable {
    case activeVoices = 0, peakLeft = 1, peakRight = 2

    /// The descriptions an instrument lists as its `outputs`.
    public static let infos: [OutputInfo] = [
        OutputInfo(id: UInt32(activeVoices.rawValue), name: "active voices", unit: .count),
        OutputInfo(id: UInt32(peakLeft.rawValue), name: "peak left", unit: .generic),
        OutputInfo(id: UInt32(peakRight.rawValue), name: "peak right", unit: .generic),
    ]

    /// Ends an instrument's block: applies its smoothed master gain to the first `frames`
    /// frames of `bus`, then stores the peak levels and the voice count into `values`.
    /// - Thread: render.
    static func finishBlock(_ gain: inout SmoothedValue, bus: AudioBus, frames: Int, activeVoices: Int,
                            values: OutputValues) {
        let left = bus.left, right = bus.right
        if gain.isRamping {
            for i in 0..<frames {
                let g = gain.next()
                left[i] *= g
                right[i] *= g
            }
        } else {
            SampleMath.scale(left, by: gain.current, frames: frames)
            SampleMath.scale(right, by: gain.current, frames: frames)
        }
        values.store(SampleMath.peak(left, frames: frames), at: Self.peakLeft.rawValue)
        values.store(SampleMath.peak(right, frames: frames), at: Self.peakRight.rawValue)
        values.store(Float(activeVoices), at: Self.activeVoices.rawValue)
    }
}
