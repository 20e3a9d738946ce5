import Testing

@Test func placeholder_MIDICoreTests() { #expect(Bool(true)) }
