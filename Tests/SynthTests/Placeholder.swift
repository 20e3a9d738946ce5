import Testing

@Test func placeholder_SynthTests() { #expect(Bool(true)) }
