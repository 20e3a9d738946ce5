import Foundation
import Testing

/// `midihub plugins` with the real binary and Debian's plugins: one-line errors with exit
/// status 2 for a name that fits none or several, `info --json`, and tab completion of URIs.
@Suite struct PluginsCommandTests {
    @Test func aNameThatFitsNoneOrSeveralIsOneLineAndExit2() throws {
        let unknown = try MidihubBinary.run(["plugins", "info", "no-such-plugin"])
        #expect(unknown.status == 2)
        #expect(unknown.standardError == "midihub: no LV2 plugin 'no-such-plugin' is installed (fix: 'midihub plugins' lists them; "
            + "Debian packages plugins as mda-lv2, x42-plugins, …)\n")
        let ambiguous = try MidihubBinary.run(["plugins", "info", "eg-scope"])
        #expect(ambiguous.status == 2)
        #expect(ambiguous.standardError == "midihub: 'eg-scope' names 2 LV2 plugins (fix: give a URI: "
            + "http://lv2plug.in/plugins/eg-scope#Mono, http://lv2plug.in/plugins/eg-scope#Stereo)\n")
    }

    @Test func infoJSONIsOneObjectWithThePortsAndPresets() throws {
        let run = try MidihubBinary.run(["plugins", "info", "JX10", "--json"])
        #expect(run.status == 0, "\(run.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        let plugin = try #require(object["plugin"] as? [String: Any])
        #expect(plugin["uri"] as? String == "http://drobilla.net/plugins/mda/JX10")
        #expect(plugin["kind"] as? String == "instrument")
        let ports = try #require(object["ports"] as? [[String: Any]])
        #expect(ports.contains { $0["type"] as? String == "midi" && $0["direction"] as? String == "input" })
        #expect(ports.filter { $0["type"] as? String == "audio" }.count == 2)
        let presets = try #require(object["presets"] as? [[String: Any]])
        #expect(presets.count == plugin["presets"] as? Int)
        #expect(run.standardOutput.split(separator: "\n").count == 1, "one compact line")
    }

    @Test func infoCompletesTheInstalledURIs() throws {
        let typed = "http://drobilla.net/plugins/mda/J"
        let run = try MidihubBinary.run(["---completion", "plugins", "info", "--", "positional@0", "3", "\(typed.count)",
                                         "midihub", "plugins", "info", typed],
                                        environment: ["SAP_SHELL": "bash"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput == "http://drobilla.net/plugins/mda/JX10\n")
    }

    /// A bundle lilv would allocate gigabytes for (FuzzPluginBundle's find) is left out of the
    /// listing with one warning line on stderr naming it; the rest is listed as ever.
    @Test func aBundleThatCannotBeReadSafelyIsLeftOutWithAWarning() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-lv2-\(UUID().uuidString)")
        let bundle = folder.appendingPathComponent("huge.lv2")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
            @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
            @prefix doap: <http://usefulinc.com/ns/doap#> .
            <urn:midihub:test:huge> a lv2:Plugin ; lv2:binary <huge.so> ; doap:name "Huge" .
            <urn:midihub:test:huge> a lv2:Plugin ; lv2:port [ a lv2:AudioPort, lv2:OutputPort ; lv2:index 4294967295 ;
                lv2:symbol "out" ; lv2:name "Out" ] .
            """.write(to: bundle.appendingPathComponent("manifest.ttl"), atomically: true, encoding: .utf8)
        let run = try MidihubBinary.run(["plugins"], environment: ["LV2_PATH": "\(folder.path):/usr/lib/lv2"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError == "midihub: warning: LV2 plugin 'urn:midihub:test:huge' declares a port index 4294967295, "
            + "beyond 4095; it is left out (fix: fix or remove its bundle (lv2info urn:midihub:test:huge shows where it is))\n")
        #expect(run.standardOutput.contains("http://lv2plug.in/plugins/eg-amp"), "the others are listed")
    }
}
