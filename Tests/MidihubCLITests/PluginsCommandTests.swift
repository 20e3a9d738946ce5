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
}
