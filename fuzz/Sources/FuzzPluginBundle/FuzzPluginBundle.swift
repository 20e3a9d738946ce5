import Foundation
import FuzzSupport
import Plugins

/// A bundle folder the target rewrites for each input (one per process): its manifest names
/// the plugin `http://lv2plug.in/plugins/eg-amp` (the seeds') and sends lilv to
/// `plugin.ttl` for the rest.
private let bundle: URL = {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-fuzz-lv2-\(getpid())")
    let bundle = folder.appendingPathComponent("fuzz.lv2")
    try? FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
    try? """
        @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
        @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
        <http://lv2plug.in/plugins/eg-amp> a lv2:Plugin ; lv2:binary <amp.so> ; rdfs:seeAlso <plugin.ttl> .
        """.write(to: bundle.appendingPathComponent("manifest.ttl"), atomically: true, encoding: .utf8)
    return bundle
}()

/// libFuzzer entry: any text, as an LV2 plugin's description (`plugin.ttl`: a plugin in
/// `~/.lv2` is anyone's file), read by the catalog: the plugin is listed with counts its
/// ports bear out, a kind those counts make, and a refusal exactly when a required feature
/// is missing, on one line; its info has a port for each index. (The manifest stays whole:
/// lilv 0.24 itself crashes on some malformed manifests — docs/fuzzing.md.)
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPluginBundle(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let description = bundle.appendingPathComponent("plugin.ttl")
    guard (try? Data(bytes: data, count: size).write(to: description)) != nil else { return 0 }
    let catalog = PluginCatalog(searchPath: bundle.deletingLastPathComponent().path)
    for plugin in catalog.plugins {
        let counts = [plugin.audioInputs, plugin.audioOutputs, plugin.midiInputs, plugin.midiOutputs,
                      plugin.controlInputs, plugin.controlOutputs, plugin.presets]
        require(counts.allSatisfy { $0 >= 0 }, "negative count in \(plugin)")
        require(plugin.kind == PluginSummary.kind(audioInputs: plugin.audioInputs, audioOutputs: plugin.audioOutputs,
                                                  midiInputs: plugin.midiInputs, midiOutputs: plugin.midiOutputs),
                "kind \(plugin.kind) of \(plugin)")
        let hostable = plugin.missing.isEmpty && [.instrument, .effect, .generator, .midiEffect].contains(plugin.kind)
        require((plugin.refusal == nil) == hostable, "refusal without a missing feature or a kind it cannot host: \(plugin)")
        let line = plugin.refusal.map { "\($0.problem) (fix: \($0.fix))" } ?? ""
        require(!line.contains("\n"), "refusal on several lines: \(line)")
        guard let info = try? catalog.info(plugin.uri) else {
            require(false, "the listed plugin \(plugin.uri) has no info")
            continue
        }
        require(info.ports.map(\.index) == Array(info.ports.indices), "port indices \(info.ports.map(\.index))")
        let audio = info.ports.filter { $0.type == .audio }.count
        require(audio == plugin.audioInputs + plugin.audioOutputs, "audio ports \(audio) against \(plugin)")
        require(info.presets.count == plugin.presets, "presets \(info.presets.count) against \(plugin.presets)")
    }
    return 0
}
