import MIDICore
import Testing
import TestSupport
@testable import RTPMIDI

/// A long random performance over a link that loses one packet in eight, with the
/// receiver's feedback moving the checkpoint: the repaired stream ends where the whole
/// one does.
@Suite struct LossyStreamTests {
    /// The state a stream leaves: notes sounding, controller values, programs, pitch wheels.
    struct Outcome: Equatable {
        var sounding = [NoteSet](repeating: NoteSet(), count: 16)
        var values: [String: Int] = [:]

        mutating func apply(_ message: MIDIMessage) {
            switch message {
            case .noteOn(let channel, let note, let velocity) where velocity > 0: sounding[Int(channel)].insert(note)
            case .noteOn(let channel, let note, _), .noteOff(let channel, let note, _): sounding[Int(channel)].remove(note)
            case .controlChange(let channel, let controller, let value): values["cc \(channel) \(controller)"] = Int(value)
            case .programChange(let channel, let program): values["program \(channel)"] = Int(program)
            case .pitchBend(let channel, let value): values["pitch \(channel)"] = Int(value)
            default: break
            }
        }
    }

    static func randomMessage(_ random: inout SeededGenerator) -> MIDIMessage {
        let channel = UInt8.random(in: 0...3, using: &random)
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<4: return .noteOn(channel: channel, note: .random(in: 48...72, using: &random), velocity: .random(in: 1...127, using: &random))
        case 4..<7: return .noteOff(channel: channel, note: .random(in: 48...72, using: &random), velocity: 0)
        case 7: return .controlChange(channel: channel, controller: [1, 7, 64][Int.random(in: 0..<3, using: &random)], value: .random(in: 0...127, using: &random))
        case 8: return .programChange(channel: channel, program: .random(in: 0...127, using: &random))
        default: return .pitchBend(channel: channel, value: .random(in: 0...16383, using: &random))
        }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func theRepairedStreamEndsWhereTheWholeOneDoes(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var link = LossyLink()
        var whole = Outcome(), repaired = Outcome()
        var lostCount = 0
        for index in 0..<2000 {
            let messages = (0..<Int.random(in: 1...3, using: &random)).map { _ in Self.randomMessage(&random) }
            for message in messages { whole.apply(message) }
            let lost = index < 1999 && Int.random(in: 0..<8, using: &random) == 0
            lostCount += lost ? 1 : 0
            guard let delivery = try link.send(messages, lost: lost) else { continue }
            for message in delivery.repair + delivery.commands.map(\.message) { repaired.apply(message) }
            if index % 8 == 0 { link.sender.acknowledge(through: link.sequenceNumber &- 1) }
        }
        #expect(link.receiver.packetsLost == lostCount && link.receiver.packetsRepaired == lostCount)
        #expect(repaired.sounding == whole.sounding)
        #expect(repaired.values == whole.values)
        for channel in UInt8(0)..<16 { #expect(link.receiver.soundingNotes(channel: channel) == whole.sounding[Int(channel)]) }
    }
}
