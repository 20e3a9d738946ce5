import Control
import Testing

@Suite struct EndpointTests {
    @Test func eachSpellingParsesToItsKindAndBack() {
        let cases: [(String, Endpoint)] = [
            ("node:lead", .node("lead")),
            ("jack:synth:midi_in", .jack("synth:midi_in")),
            ("20:0", .alsa("20:0")),
            ("FLUID Synth", .alsa("FLUID Synth")),
            ("nodes", .alsa("nodes")),
        ]
        for (text, endpoint) in cases {
            #expect(Endpoint(parsing: text) == endpoint, "\(text)")
            #expect(endpoint.description == text)
        }
        #expect(Endpoint.node("lead").nodeID == "lead" && Endpoint.alsa("20:0").nodeID == nil)
    }

    @Test func aConnectionSummaryCarriesTypedEnds() {
        let route = ConnectionSummary(from: .node("keys"), to: .node("synth"))
        #expect(route == ConnectionSummary(source: "node:keys", destination: "node:synth"))
        #expect(route.sourceEndpoint == .node("keys") && route.destinationEndpoint == .node("synth"))
    }
}
