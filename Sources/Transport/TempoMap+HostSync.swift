import MIDICore
import RenderCore

extension TempoMap {
    /// The timeline nodes see at `tick`: the tempo there (or `tempo`), the beat, the bar
    /// and where it started, the time signature. `samplePosition` and `sampleRate` are left
    /// for the caller.
    /// - Thread: any.
    public func hostSync(atTick tick: Tick, tempo: Double? = nil, transport: HostSync.Transport) -> HostSync {
        let quarter = Double(ticksPerQuarter)
        var change = tempoChanges[0]
        for next in tempoChanges where next.tick <= tick { change = next }
        var signature = timeSignatures[0]
        for next in timeSignatures where next.tick <= tick { signature = next }
        let bar = barBeat(atTick: tick).bar
        return HostSync(samplePosition: 0, sampleRate: 0, tempo: tempo ?? change.beatsPerMinute, beat: tick.ticks / quarter,
                        bar: bar, barStartBeat: self.tick(bar: bar, beat: 1).ticks / quarter,
                        timeSignatureNumerator: signature.numerator, timeSignatureDenominator: signature.denominator,
                        transport: transport)
    }
}
