import Testing
import OSC

/// OSC 1.0's address patterns against the hub's addresses.
@Suite struct OSCAddressPatternTests {
    @Test(arguments: [
        ("/node/synth/cutoff", "/node/synth/cutoff", true),
        ("/node/synth/cutoff", "/node/synth/cutof", false),
        ("/node/*/cutoff", "/node/synth/cutoff", true),
        ("/node/*", "/node/synth/cutoff", false),  // '*' stops at '/'
        ("/node/s?nth/*", "/node/synth/master_gain", true),
        ("/node/synth/osc[12]_wave", "/node/synth/osc2_wave", true),
        ("/node/synth/osc[!12]_wave", "/node/synth/osc2_wave", false),
        ("/node/synth/osc[0-9]_wave", "/node/synth/osc1_wave", true),
        ("/scene/{verse,chorus}", "/scene/chorus", true),
        ("/scene/{verse,chorus}", "/scene/bridge", false),
        ("/{node,trigger}/*/*", "/trigger/panic/press", true),
        ("/node/synth/[", "/node/synth/[", true),  // an unclosed bracket is itself
        ("*", "", true),
        ("/a*b*c", "/axxbyyc", true),
        ("/a*b*c", "/axxbyy", false),
    ])
    func patternsMatchTheAddressesTheyName(pattern: String, address: String, matches: Bool) {
        #expect(OSCAddressPattern(pattern).matches(address) == matches)
    }

    @Test func aHostilePatternEndsQuicklyAndALongOneMatchesNothing() {
        let stars = "/" + String(repeating: "*a", count: 400) + "b"
        #expect(!OSCAddressPattern(stars).matches("/" + String(repeating: "a", count: 600)))
        #expect(!OSCAddressPattern("/x*").matches("/x" + String(repeating: "y", count: OSCAddressPattern.maximumLength)))
        #expect(OSCAddressPattern("/node/synth/cutoff").isLiteral)
        #expect(!OSCAddressPattern("/node/*/cutoff").isLiteral)
    }
}
