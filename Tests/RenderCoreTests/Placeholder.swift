import Testing

@Test func placeholder_RenderCoreTests() { #expect(Bool(true)) }
