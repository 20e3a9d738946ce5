import Hub

/// The setup the daemon runs with no patch and no saved state: every hardware MIDI input
/// (a USB keyboard; not Midi Through, not System) plays the built-in synth on the default
/// sound output. Written as a patch, so it is validated like any other.
///
/// - Thread: any.
public enum DefaultSetup {
    public static let yaml = """
        version: 1
        name: default (every keyboard plays the built-in synth)
        nodes:
          keys:
            source: "*"
          synth:
            instrument: midihub synth
          out:
            output: default
        routes:
          - keys -> synth
          - synth -> out
        rules:
          - connect hardware:* -> "midihub:in"
          - disallow "Midi Through" -> *
        """

    /// The embedded default as a patch.
    public static var patch: Patch {
        // The text above is fixed and valid (a test checks it).
        try! Patch.parse(yaml: yaml, file: "<embedded default>", registry: NodeCatalog.registry)
    }
}
