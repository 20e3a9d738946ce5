@testable import ALSA
import MIDICore
import Testing

private let keyboard = SeqAddress(client: 20, port: 0)
private let other = SeqAddress(client: 21, port: 0)

private func add(_ bytes: [UInt8], from source: SeqAddress = keyboard, to assembler: inout SysExAssembler) -> [UInt8]? {
    bytes.withUnsafeBytes { assembler.add($0, from: source) }
}

@Test func aWholeMessageCompletesAtOnce() {
    var assembler = SysExAssembler()
    #expect(add([0xF0, 1, 2, 0xF7], to: &assembler) == [1, 2])
}

@Test func piecesAreJoinedPerSource() {
    var assembler = SysExAssembler()
    #expect(add([0xF0, 1, 2], to: &assembler) == nil)
    #expect(add([0xF0, 9], from: other, to: &assembler) == nil)
    #expect(add([3, 4], to: &assembler) == nil)
    #expect(add([5, 0xF7], to: &assembler) == [1, 2, 3, 4, 5])
    #expect(add([0xF7], from: other, to: &assembler) == [9])
}

@Test func aPieceWithoutBeginningIsDropped() {
    var assembler = SysExAssembler()
    #expect(add([3, 4, 0xF7], to: &assembler) == nil)
    #expect(add([], to: &assembler) == nil)
}

@Test func aNewStartReplacesAnUnfinishedMessage() {
    var assembler = SysExAssembler()
    #expect(add([0xF0, 1], to: &assembler) == nil)
    #expect(add([0xF0, 2, 0xF7], to: &assembler) == [2])
    #expect(add([3, 0xF7], to: &assembler) == nil)
}

@Test func anUnfinishedMessageIsForgottenWhenItsNextPieceDoesNotCome() {
    var assembler = SysExAssembler()
    let start: HostTime = 100
    _ = [UInt8]([0xF0, 1]).withUnsafeBytes { assembler.add($0, from: keyboard, at: start) }
    _ = [UInt8]([0xF0, 9]).withUnsafeBytes { assembler.add($0, from: other, at: start + 4) }
    #expect(assembler.unfinished == 2)
    // A piece from `other` 6 s after the keyboard's start: the keyboard's message is gone.
    let rest = [UInt8]([2, 0xF7]).withUnsafeBytes { assembler.add($0, from: keyboard, at: start + 6) }
    #expect(rest == nil)
    #expect(assembler.unfinished == 1)
    let finished = [UInt8]([0xF7]).withUnsafeBytes { assembler.add($0, from: other, at: start + 6) }
    #expect(finished == [9])
}

@Test func aMessageInThousandsOfPiecesIsJoinedWhole() {
    var assembler = SysExAssembler()
    #expect(add([0xF0], to: &assembler) == nil)
    let early = (0..<10_000).compactMap { add([UInt8($0 % 128)], to: &assembler) }
    #expect(early.isEmpty)
    let joined = add([0xF7], to: &assembler)
    #expect(joined == (0..<10_000).map { UInt8($0 % 128) })
}
