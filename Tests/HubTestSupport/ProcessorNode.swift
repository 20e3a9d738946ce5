import Hub
import MIDICore
import RenderCore

/// A processor as a graph node runs it, for tests of one processor alone: the processor and
/// the values set on its node by name (what the graph keeps), handed to each call as the
/// router hands them.
///
/// - Thread: the test's.
public struct ProcessorNode {
    public var processor: any MIDIProcessor
    public private(set) var values: [String: Float] = [:]

    public init(_ processor: any MIDIProcessor) {
        self.processor = processor
    }

    /// The values as the processor reads them.
    public var parameters: ParameterValues { ParameterValues(processor.parameterInfos, set: values) }

    /// Sets parameter `name` as the router does (checked, clamped).
    public mutating func set(_ name: String, to value: Float) throws(ParameterError) {
        values[name] = try parameters.checked(name, value)
    }

    public mutating func process(_ event: TimedMIDI, into output: inout [TimedMIDI]) {
        processor.process(event, parameters: parameters, into: &output)
    }

    public mutating func generate(from start: HostTime, to end: HostTime, clock: TempoClock, into output: inout [TimedMIDI]) {
        processor.generate(from: start, to: end, clock: clock, parameters: parameters, into: &output)
    }

    public mutating func regrid(at time: HostTime, clock: TempoClock) {
        processor.regrid(at: time, clock: clock, parameters: parameters)
    }

    public func nextGeneratedTime(clock: TempoClock) -> HostTime? {
        processor.nextGeneratedTime(clock: clock, parameters: parameters)
    }
}
