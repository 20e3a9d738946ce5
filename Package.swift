// swift-tools-version: 6.0
import PackageDescription

// Module layout and import rules: see docs/architecture.md.
// Only `ALSA` imports `CALSA`; only `RtMidiBackend` imports `CRtMidi`; only `SoundFont` imports `CVorbis`;
// only `NetworkMIDI` imports `CAvahi`; only `AudioHost` imports `CJack`; only `Plugins` imports `CLilv` and `CPluginChild`;
// only `VoiceLanes` imports `CCPUFeatures`; only `Synth` imports `VoiceLanesAVX2`.
// `SynthKernels` imports nothing.
// `MIDICore`, `RenderCore` and `Synth` import no I/O module. Only `Remote` imports Hummingbird; only `Remote` and `NetworkMIDI` import SwiftNIO (`NetworkMIDI` only NIOCore's addresses).
// The DSP modules compile optimized in debug builds too: unoptimized, the SoundFont
// instrument renders 60 times slower (2× real time on one core of a fast machine), too
// slow for the live tests under emulation and for the tests' own renders. `RTPMIDI` too:
// unoptimized, a journal per packet kept a session's thread behind a dense song in the VM. Assertions,
// preconditions and `@testable import` stay as in any debug build.
let dspOptimized: [SwiftSetting] = [.unsafeFlags(["-O", "-assert-config", "Debug"], .when(configuration: .debug))]

// The modules on the MIDI thread's path (the sequencer, the core, the daemon) skip Swift's
// run-time exclusivity checks in release builds: a check on each access to a class's
// property was a sixth of the MIDI thread's instructions per event (callgrind in the VM,
// docs/benchmarks.md). Debug builds, which every test runs, keep checking.
let midiPath: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]

let package = Package(
    name: "midihub",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "midihub", targets: ["midihub"]),
        .library(name: "MIDICore", targets: ["MIDICore"]),
        .library(name: "RenderCore", targets: ["RenderCore"]),
        .library(name: "Synth", targets: ["Synth"]),
        .library(name: "Sequencer", targets: ["Sequencer"]),
        .library(name: "Transport", targets: ["Transport"]),
        // For the bench's hub-route row.
        .library(name: "Hub", targets: ["Hub"]),
        .library(name: "Daemon", targets: ["Daemon"]),
        // For the fuzz targets: the built-in node types a patch is checked against.
        .library(name: "SetupViews", targets: ["SetupViews"]),
        // For the fuzz targets (fuzz/): the sequencer's event decoder and SysEx assembly.
        .library(name: "ALSA", targets: ["ALSA"]),
        // For the fuzz targets (fuzz/): the control server's request decoder.
        .library(name: "Control", targets: ["Control"]),
        // For the fuzz targets: the SoundFont reader.
        .library(name: "SoundFont", targets: ["SoundFont"]),
        // For the fuzz targets: the RTP-MIDI packet and recovery journal decoders.
        .library(name: "RTPMIDI", targets: ["RTPMIDI"]),
        // For the fuzz targets: the LV2 bundles' reader.
        .library(name: "Plugins", targets: ["Plugins"]),
        // For the fuzz targets: the OSC packet and stream readers, address patterns, and the
        // hub's OSC address space.
        .library(name: "OSC", targets: ["OSC"]),
        .library(name: "OSCSurface", targets: ["OSCSurface"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
        // The web remote (`Remote`): HTTP and WebSocket on their own event loop threads.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.14.0"),
    ],
    targets: [
        // C gates.
        .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(name: "CRtMidi", pkgConfig: "rtmidi", providers: [.apt(["librtmidi-dev"])]),
        // libvorbisfile, for SF3 fonts' compressed samples. Only `SoundFont` imports it.
        .systemLibrary(name: "CVorbis", pkgConfig: "vorbisfile", providers: [.apt(["libvorbis-dev"])]),
        .systemLibrary(name: "CAvahi", pkgConfig: "avahi-client", providers: [.apt(["libavahi-client-dev"])]),
        // lilv (liblilv-dev): the LV2 plugins installed. Only `Plugins` imports it.
        .systemLibrary(name: "CLilv", pkgConfig: "lilv-0", providers: [.apt(["liblilv-dev"])]),
        // libjack (libjack-jackd2-dev): the hub's audio as a JACK client. Only `AudioHost` imports it.
        .systemLibrary(name: "CJack", pkgConfig: "jack", providers: [.apt(["libjack-jackd2-dev"])]),

        // MIDI 1.0 model, byte-stream parser/encoder, SMF, tempo map, text format. No C, no I/O.
        .target(name: "MIDICore"),

        // The LV2 plugins installed on the system (lilv): what each is, its ports, presets
        // and required features, read off the MIDI and render threads; and each hosted as a
        // render node (`LV2Node`) with the host features it needs.
        .target(name: "Plugins", dependencies: ["CLilv", "CPluginChild", "Hub", "RenderCore"], swiftSettings: dspOptimized),
        // What an isolated plugin node needs of Linux that Swift cannot call: futexes on
        // shared memory, spawning its child with fixed descriptors, a pidfd. Only `Plugins` imports it.
        .target(name: "CPluginChild"),

        // RTP-MIDI (RFC 6295) and Apple's session protocol: packets, the recovery journal,
        // its sender and the receiver's repair, the sessions' logic (`SessionHost`). Pure
        // values: no I/O, no threads, no Foundation.
        .target(name: "RTPMIDI", dependencies: ["MIDICore"], swiftSettings: dspOptimized),
        // Open Sound Control 1.0 packets as values (docs/osc.md): no I/O.
        .target(name: "OSC"),
        // The hub's model as OSC addresses: what a surface's message asks, what it is sent back.
        .target(name: "OSCSurface", dependencies: ["ALSA", "Control", "MIDICore", "NetworkMIDI", "OSC", "RTPMIDI"]),

        // The files a user names, opened the one way: a regular file within its kind's size
        // limit, or one line saying what the path is. Glibc only.
        .target(name: "UserFiles"),

        // Realtime side: RenderEvent, SPSC rings, Node protocol, block executor. No Foundation.
        .target(name: "RenderCore", swiftSettings: dspOptimized),

        // SoundFont 2 reader: RIFF, the hydra, sample data mapped from the file, SF3's Vorbis
        // samples decoded. No other midihub module.
        .target(name: "SoundFont", dependencies: ["CVorbis", "UserFiles", "CMappedFile"], swiftSettings: dspOptimized),
        // File mappings: zeros, not SIGBUS, once the file shrinks under one; the file read
        // into the page cache ahead of the mapping's readers.
        .target(name: "CMappedFile"),

        // SoundFont voices rendered four at a time in SIMD lanes, from plain copies of them.
        .target(name: "VoiceLanes", dependencies: ["SoundFont", "CCPUFeatures"], swiftSettings: dspOptimized),
        // Whether the processor has AVX2 and FMA (CPUID and XGETBV).
        .target(name: "CCPUFeatures"),
        // Eight voices at a time in AVX registers, and the synth's oscillators' loops
        // (`OscillatorsAVX2`): the one module compiled for AVX2 and FMA (Haswell, 2013, and
        // later). Only `Synth` calls it, and only where `ProcessorFeatures.hasAVX2AndFMA`;
        // scripts/check-avx2-module checks it shares no code with the rest.
        .target(
            name: "VoiceLanesAVX2", dependencies: ["VoiceLanes", "SoundFont", "SynthKernels"],
            swiftSettings: [.unsafeFlags(["-O", "-target-cpu", "haswell", "-Xcc", "-mavx2", "-Xcc", "-mfma"])]
        ),

        // The synth's oscillators' loops and the math they use, inlinable: `Synth` inlines
        // them (the baseline build) and `VoiceLanesAVX2` compiles them for AVX2 and FMA.
        .target(name: "SynthKernels", swiftSettings: dspOptimized),

        // Built-in instrument and effect nodes (DSP), preset model.
        .target(name: "Synth", dependencies: ["RenderCore", "MIDICore", "SoundFont", "SynthKernels", "VoiceLanes", "VoiceLanesAVX2"],
                swiftSettings: dspOptimized),

        // The transport's logic, no I/O and no clock of its own: the song and its player, the
        // playlist, the MIDI clock follower, takes and overdubs. RenderCore for `HostSync`
        // (the timeline the player hands nodes), a plain value.
        .target(name: "Transport", dependencies: ["MIDICore", "RenderCore"]),

        // Offline renderer (sequence → render events → audio), sequence files, WAV, presets.
        .target(name: "Sequencer", dependencies: ["MIDICore", "RenderCore", "Synth", "Transport", "UserFiles"]),

        // What RtMidi 5's C API lacks (error routing) and libjack's silencing and server
        // probe; C++ behind a C header. Only RtMidiBackend imports it.
        .target(
            name: "CRtMidiSupport",
            linkerSettings: [.linkedLibrary("rtmidi"), .linkedLibrary("jack")]
        ),

        // JACK MIDI ports through RtMidi.
        .target(name: "RtMidiBackend", dependencies: ["CRtMidi", "CRtMidiSupport", "MIDICore", "RenderCore"]),

        // Typed wrappers over the ALSA sequencer and PCM.
        .target(name: "ALSA", dependencies: ["CALSA", "MIDICore"], swiftSettings: midiPath),

        // Control side: rules, reconciler, node graph, MIDI processors, patches, state.
        .target(name: "Hub", dependencies: ["MIDICore", "RenderCore", "RTPMIDI", "Transport", "UserFiles", .product(name: "Yams", package: "Yams")],
                swiftSettings: midiPath),

        // Control API: versioned protocol types, UNIX-socket server and client. Foundation only.
        .target(name: "Control"),

        // Live audio: the render thread that plays an engine to ALSA PCM, with live input.
        .target(name: "AudioHost", dependencies: ["ALSA", "CJack", "RenderCore", "Sequencer", "MIDICore"]),

        // What the CLI and the daemon show of a setup, the same words with or without a daemon:
        // the graph, mappings, scenes, triggers and widgets as the control protocol's values,
        // the graph drawn as text, the default setup, the built-in node types.
        .target(name: "SetupViews", dependencies: ["ALSA", "AudioHost", "Control", "Hub", "Plugins", "RenderCore", "Synth"]),

        // The web remote (`midihub serve --remote`): the page, and each browser's WebSocket
        // bridged to a control-socket connection of its own. Reaches the hub only as a
        // control client does.
        .target(
            name: "Remote",
            dependencies: [
                "Control",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.embedInCode("Page/index.html"), .embedInCode("Page/app.js"), .embedInCode("Page/style.css")]
        ),

        // Network MIDI sessions (`midihub network`): `SessionHost`, its UDP sockets and its
        // sequencer client (each session a port) on one thread; SwiftNIO for addresses.
        .target(name: "NetworkMIDI", dependencies: [
            "ALSA", "CAvahi", "Control", "MIDICore", "RTPMIDI",
            .product(name: "NIOCore", package: "swift-nio"),
        ]),

        // The hub service (`midihub serve`): sequencer client, routing, hot-plug, audio, control socket.
        .target(name: "Daemon", dependencies: [
            "ALSA", "AudioHost", "Control", "Hub", "MIDICore", "NetworkMIDI", "OSCSurface", "Plugins", "RenderCore", "RTPMIDI", "Remote",
            "RtMidiBackend", "Sequencer", "SetupViews", "SoundFont", "Synth", "Transport",
        ], swiftSettings: midiPath),

        // The commands of the CLI: parsing, help, errors and exit codes. A library so that
        // tests parse and run the same commands the executable does.
        .target(
            name: "MidihubCLI",
            dependencies: [
                "MIDICore", "ALSA", "RenderCore", "Synth", "Sequencer", "AudioHost", "Control", "Hub", "Daemon", "Remote",
                "NetworkMIDI", "OSCSurface", "RTPMIDI",
                "SetupViews", "SoundFont", "Transport", "Plugins",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // The one executable: `main.swift` runs `Midihub.main()`.
        .executableTarget(name: "midihub", dependencies: ["MidihubCLI"]),

        .testTarget(name: "MIDICoreTests", dependencies: ["MIDICore", "TestSupport"]),
        // pymidi_parse.py: what pymidi (/opt/pymidi-venv) reads of the packets RTPMIDI encodes.
        .testTarget(name: "RTPMIDITests", dependencies: ["RTPMIDI", "MIDICore", "TestSupport"], exclude: ["pymidi_parse.py"]),
        .testTarget(name: "OSCTests", dependencies: ["OSC"]),
        .testTarget(name: "OSCSurfaceTests", dependencies: ["OSCSurface", "OSC", "Control", "RTPMIDI"]),
        .testTarget(name: "SoundFontTests", dependencies: ["SoundFont", "TestSupport"]),
        .testTarget(name: "SequencerTests", dependencies: ["Sequencer", "Transport", "MIDICore", "TestSupport", "UserFiles"]),
        .testTarget(name: "MidihubCLITests", dependencies: ["MidihubCLI", "Control", "ALSA", "MIDICore", "Synth", "TestSupport"]),
        // Every code block of docs/ and the README names the test that runs it.
        .testTarget(name: "DocsTests", dependencies: ["TestSupport"]),
        .testTarget(name: "ALSATests", dependencies: ["ALSA", "TestSupport"]),
        .testTarget(name: "HubTests", dependencies: ["Hub", "HubTestSupport", "Transport"]),
        .testTarget(name: "PluginsTests", dependencies: ["Plugins", "Hub", "HubTestSupport", "MIDICore", "RenderCore", "TestSupport", "AllocationCounter"]),
        .testTarget(name: "RtMidiBackendTests", dependencies: [
            "RtMidiBackend", "MIDICore", "CJackTestEnvironment", "CJackProbe", "TestSupport", "ALSA", "AllocationCounter", "AudioHost", "Daemon", "Hub",
            "RenderCore", "Sequencer", "SetupViews", "Synth", "SoundMeasures",
        ]),
        // Test support: the JACK server name, set in the environment before main.
        .target(name: "CJackTestEnvironment", path: "Tests/CJackTestEnvironment"),
        // Test support: key to sound measured in JACK's frames by two JACK clients of the test's.
        .target(name: "CJackProbe", path: "Tests/CJackProbe", linkerSettings: [.linkedLibrary("jack"), .linkedLibrary("m")]),
        .testTarget(name: "RenderCoreTests", dependencies: ["RenderCore", "TestSupport"]),
        .testTarget(name: "ControlTests", dependencies: ["Control", "TestSupport"]),
        .testTarget(name: "RemoteTests", dependencies: ["Remote", "Control", "TestSupport"]),
        .testTarget(name: "DaemonTests", dependencies: [
            "Daemon", "Hub", "Control", "ALSA", "AudioHost", "MIDICore", "Plugins", "RenderCore", "RTPMIDI", "RtMidiBackend", "Sequencer",
            "SetupViews", "Transport", "SoundFont", "Synth",
            "TestSupport", "HubTestSupport",
        ]),
        .testTarget(name: "AudioHostTests", dependencies: [
            "AudioHost", "ALSA", "RenderCore", "Sequencer", "Synth", "MIDICore", "AllocationCounter", "TestSupport", "Transport",
        ]),
        .testTarget(name: "SynthTests", dependencies: [
            "Synth", "SynthKernels", "SoundFont", "VoiceLanes", "RenderCore", "MIDICore", "Sequencer", "AllocationCounter",
            "SoundMeasures", "Transport", "TestSupport",
        ]),
        // Test support: what the fidelity tier measures of a note (level, envelope times,
        // spectrum, pitch), optimized like the DSP it measures.
        .target(name: "SoundMeasures", path: "Tests/SoundMeasures", swiftSettings: dspOptimized),
        // Test support: one thread's allocations, one counting suite at a time (the count is
        // process-wide), through the test process's own malloc, which is C (it runs inside
        // every thread's allocations).
        .target(name: "AllocationCounter", dependencies: ["CMallocCounter"], path: "Tests/AllocationCounter"),
        .target(name: "CMallocCounter", path: "Tests/CMallocCounter"),
        // Test support: waits with a deadline (no test can hang) and the code blocks of docs/.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // Routing fixtures shared by HubTests and DaemonTests.
        .target(name: "HubTestSupport", dependencies: ["Hub", "MIDICore", "RenderCore"], path: "Tests/HubTestSupport"),
    ]
)
