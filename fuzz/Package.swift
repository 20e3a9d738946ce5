// swift-tools-version: 6.0
import PackageDescription

// libFuzzer targets for MIDICore. Build and run with `fuzz/run` (see docs/fuzzing.md):
//   swift build -c release --package-path fuzz --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address
let package = Package(
    name: "midihub-fuzz",
    dependencies: [.package(name: "midihub", path: "..")],
    targets: [
        // The executables' entry points, which start libFuzzer (see FuzzerEntry.c).
        .target(name: "FuzzerEntry"),
        .executableTarget(
            name: "FuzzSMFReader",
            dependencies: ["FuzzerEntry", .product(name: "MIDICore", package: "midihub")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .executableTarget(
            name: "FuzzMIDIParser",
            dependencies: ["FuzzerEntry", .product(name: "MIDICore", package: "midihub")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
    ]
)
