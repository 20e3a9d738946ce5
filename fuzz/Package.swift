// swift-tools-version: 6.0
import PackageDescription

// libFuzzer targets for every parser of untrusted input. Build and run with `fuzz/run`
// (see docs/fuzzing.md):
//   swift build -c release --package-path fuzz --scratch-path .build-fuzz \
//       -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing
// `-enable-testing` lets FuzzControlRequest reach the control server's own line splitter
// and request decoder, which are internal to `Control`.
let package = Package(
    name: "midihub-fuzz",
    dependencies: [.package(name: "midihub", path: "..")],
    targets: [
        // The executables' entry points, which start libFuzzer (see FuzzerEntry.c).
        .target(name: "FuzzerEntry"),
        // `require`, the targets' check that keeps its message in a release build.
        .target(name: "FuzzSupport"),
        fuzzTarget("FuzzSMFReader", testing: "MIDICore", "Transport"),
        fuzzTarget("FuzzMIDIParser", testing: "MIDICore", "Transport"),
        fuzzTarget("FuzzSequenceText", testing: "MIDICore"),
        fuzzTarget("FuzzControlRequest", testing: "Control"),
        fuzzTarget("FuzzPatch", testing: "Hub", "SetupViews"),
        fuzzTarget("FuzzPreset", testing: "Synth"),
        fuzzTarget("FuzzSoundFont", testing: "SoundFont"),
        fuzzTarget("FuzzSeqEvent", testing: "ALSA", "MIDICore"),
        fuzzTarget("FuzzStateFile", testing: "Hub"),
        fuzzTarget("FuzzRTPMIDI", testing: "RTPMIDI", "MIDICore"),
        fuzzTarget("FuzzAppleMIDISession", testing: "RTPMIDI"),
        fuzzTarget("FuzzPluginBundle", testing: "Plugins"),
        fuzzTarget("FuzzOSCPacket", testing: "OSC", "OSCSurface", "Control"),
    ]
)

/// One libFuzzer executable over products of the main package.
func fuzzTarget(_ name: String, testing products: String...) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["FuzzerEntry", "FuzzSupport"] + products.map { .product(name: $0, package: "midihub") },
        swiftSettings: [.unsafeFlags(["-parse-as-library"])]
    )
}
