import ALSA
import Testing

@Test(arguments: [("20:0", 20, 0), ("20.3", 20, 3), ("128", 128, 0), ("255:255", 255, 255)])
func parsesNumericAddresses(text: String, client: Int, port: Int) {
    #expect(SeqAddress(text) == SeqAddress(client: UInt8(client), port: UInt8(port)))
}

@Test(arguments: ["", ":", "20:", ":0", "256:0", "20:0:1", "20:0.1", "a:0", "-1:0", "Midi"])
func rejectsNonNumericForms(text: String) {
    #expect(SeqAddress(text) == nil)
}

@Test func printsAsClientColonPort() {
    #expect(SeqAddress(client: 20, port: 1).description == "20:1")
    #expect(SeqAddress.systemAnnounce.description == "0:1")
}

@Test func ordersByClientThenPort() {
    let sorted = [SeqAddress(client: 21, port: 0), SeqAddress(client: 20, port: 2), SeqAddress(client: 20, port: 1)].sorted()
    #expect(sorted.map(\.description) == ["20:1", "20:2", "21:0"])
}
