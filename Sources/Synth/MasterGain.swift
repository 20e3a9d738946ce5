import RenderCore

/// Applies an instrument's smoothed master gain to the first `frames` frames of `bus` and
/// stores the block's peak levels as the node's `left` and `right` output values.
/// - Thread: render.
func applyMasterGain(_ gain: inout SmoothedValue, bus: AudioBus, frames: Int, peaks: OutputValues, left leftOutput: Int,
                     right rightOutput: Int) {
    let left = bus.left, right = bus.right
    if gain.isRamping {
        for i in 0..<frames {
            let g = gain.next()
            left[i] *= g
            right[i] *= g
        }
    } else {
        let g = gain.current
        for i in 0..<frames {
            left[i] *= g
            right[i] *= g
        }
    }
    var peakLeft: Float = 0, peakRight: Float = 0
    for i in 0..<frames {
        peakLeft = max(peakLeft, abs(left[i]))
        peakRight = max(peakRight, abs(right[i]))
    }
    peaks.store(peakLeft, at: leftOutput)
    peaks.store(peakRight, at: rightOutput)
}
