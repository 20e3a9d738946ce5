import Foundation
import Hub
import Plugins
import RenderCore
import Testing
import TestSupport

/// A node's sound saved as an LV2 preset (`InstalledPlugins.savePreset`) where other hosts
/// find it: lilv's `lv2info` lists it, and a catalog read afresh (a restart) loads it by its
/// label with the values saved.
@Suite struct PluginPresetSaveTests {
    /// A folder of its own first on the search path (where presets are saved), then the system's.
    static func plugins(in folder: String) -> InstalledPlugins {
        InstalledPlugins(searchPath: "\(folder):/usr/lib/lv2")
    }

    static func temporaryFolder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-presets-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test(arguments: [true, false])
    func aSavedPresetIsFoundByItsLabelAfterARestartAndByLilv(running: Bool) throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let plugins = Self.plugins(in: folder)
        let amp = try plugins.descriptor(for: "eg-amp")
        let node = plugins.makeNode(amp)
        if running { node?.prepare(format: RenderFormat(sampleRate: 48_000, maxFrames: 512)) }

        let saved = try plugins.savePreset(of: amp, label: "Quiet Room", values: ["gain": -7.5], running: running ? node : nil)
        #expect(saved.label == "Quiet Room")
        #expect(saved.bundle == folder + "/Simple_Amplifier_Quiet_Room.preset.lv2")
        #expect(try plugins.presetValues(of: amp, preset: "quiet room") == ["gain": -7.5], "found at once, by its label")

        let restarted = Self.plugins(in: folder)
        #expect(try restarted.presetValues(of: try restarted.descriptor(for: "eg-amp"), preset: "Quiet Room") == ["gain": -7.5])
        let listed = try ShellScript.run("lv2info http://lv2plug.in/plugins/eg-amp", in: URL(fileURLWithPath: folder),
                                         environment: ["LV2_PATH": "\(folder):/usr/lib/lv2"])
        #expect(listed.status == 0 && listed.output.contains("Quiet Room"), "lv2info lists the preset: \(listed.output)")

        _ = try plugins.savePreset(of: amp, label: "Quiet Room", values: ["gain": -3], running: running ? node : nil)
        #expect(try plugins.presetValues(of: amp, preset: "Quiet Room") == ["gain": -3], "saved again, replaced")
    }

    @Test func aPresetThatCannotBeWrittenIsRefusedInOneLine() throws {
        let plugins = Self.plugins(in: "/proc/midihub-cannot-write")
        let amp = try plugins.descriptor(for: "eg-amp")
        #expect {
            _ = try plugins.savePreset(of: amp, label: "x", values: [:], running: nil)
        } throws: { error in
            let refusal = error as? PluginRefusal
            return refusal?.problem.hasPrefix("cannot make the preset folder /proc/midihub-cannot-write") == true
                && refusal?.fix.contains("LV2_PATH") == true
        }
    }
}
