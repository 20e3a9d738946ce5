@testable import ALSA
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
