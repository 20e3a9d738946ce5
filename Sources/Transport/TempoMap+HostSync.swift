import MIDICore
import RenderCore

extension TempoMap {
    /// The timeline nodes see at `tick` (fractional): the tempo there (or `tempo`), the
    /// beat, the bar and where it started, the time signature. `samplePosition` and
    /// `sampleRate` are left for the caller.
    /// - Thread: any.
    public func hostSync(atTick tick: Double, tempo: Double? = nil, transport: HostSync.Transport) -> HostSync {
        let wholeTick = UInt64(max(tick, 0))
        let quarter = Double(ticksPerQuarter)
        var change = tempoChanges[0]
        for next in tempoChanges where next.tick <= wholeTick { change = next }
        var signature = timeSignatures[0]
        for next in timeSignatures where next.tick <= wholeTick { signature = next }
        let bar = barBeat(atTick: wholeTick).bar
        return HostSync(samplePosition: 0, sampleRate: 0, tempo: tempo ?? change.beatsPerMinute, beat: max(tick, 0) / quarter,
                        bar: bar, barStartBeat: Double(self.tick(bar: bar, beat: 1)) / quarter,
                        timeSignatureNumerator: signature.numerator, timeSignatureDenominator: signature.denominator,
                        transport: transport)
    }
}
