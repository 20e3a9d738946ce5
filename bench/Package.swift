// swift-tools-version: 6.0
import PackageDescription

// Benchmarks: `bench/run` builds this in release (scratch path .build-bench) and
// prints a Markdown table. See docs/benchmarks.md.
let package = Package(
    name: "midihub-bench",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "midihub", path: "..")],
    targets: [
        .executableTarget(
            name: "midihub-bench",
            dependencies: [
                .product(name: "MIDICore", package: "midihub"),
                .product(name: "Synth", package: "midihub"),
                .product(name: "SoundFont", package: "midihub"),
                .product(name: "RenderCore", package: "midihub"),
                .product(name: "Sequencer", package: "midihub"),
                .product(name: "Hub", package: "midihub"),
                .product(name: "Daemon", package: "midihub"),
                .product(name: "Plugins", package: "midihub"),
                .product(name: "OSC", package: "midihub"),
                .product(name: "OSCSurface", package: "midihub"),
                "CSeqEncode",
            ]
        ),
        // alsa-lib's event encoding into a buffer, for the hub-route row (no kernel needed).
        .target(name: "CSeqEncode", linkerSettings: [.linkedLibrary("asound")]),
        // Sends stamped note-ons through a sequencer path and times them (bench/vm/hub.bench.sh).
        .executableTarget(
            name: "seq-probe",
            linkerSettings: [.linkedLibrary("asound"), .linkedLibrary("pthread")]
        ),
        // The smallest userspace router (read, write out, a burst in one write): the anchor
        // of the hub's own hop in bench/vm/hub.bench.sh.
        .executableTarget(
            name: "seq-relay",
            linkerSettings: [.linkedLibrary("asound")]
        ),
        // The smallest JACK MIDI router (its input copied to its output in the process
        // callback): the anchor of the hub's JACK MIDI hop in bench/vm/jack.bench.sh.
        .executableTarget(
            name: "jack-midi-relay",
            linkerSettings: [.linkedLibrary("jack")]
        ),
        // Times JACK MIDI out → a client → in between two JACK clients of its own, in frames
        // (bench/vm/jack.bench.sh).
        .executableTarget(
            name: "jack-midi-probe",
            linkerSettings: [.linkedLibrary("jack")]
        ),
        // Counts a JACK server's xruns for a while (bench/vm/xruns.bench.sh).
        .executableTarget(
            name: "jack-xrun-count",
            linkerSettings: [.linkedLibrary("jack")]
        ),
        // Times a note-on into a snd-virmidi keyboard to its onset in snd-aloop's capture or
        // at a JACK port (bench/vm/key-to-sound.bench.sh).
        .executableTarget(
            name: "key-to-sound-probe",
            linkerSettings: [.linkedLibrary("asound"), .linkedLibrary("jack"), .linkedLibrary("pthread"), .linkedLibrary("m")]
        ),
    ]
)
