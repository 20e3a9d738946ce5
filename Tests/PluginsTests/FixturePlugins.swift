import Foundation
import Plugins
import TestSupport

/// The tests' own LV2 bundle (Tests/Fixtures/lv2/README.md), built once per test run: its
/// Turtle files copied and `fixture.c` compiled with the system's `cc` into a scratch folder,
/// which `plugins` searches.
enum FixturePlugins {
    /// The folder holding `midihub-fixture.lv2`, built.
    static let folder: URL = {
        let source = Repository.root.appendingPathComponent("Tests/Fixtures/lv2/midihub-fixture.lv2")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-fixture-\(getpid())")
        let bundle = folder.appendingPathComponent("midihub-fixture.lv2")
        try? FileManager.default.removeItem(at: folder)
        try! FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        for file in ["manifest.ttl", "fixture.ttl"] {
            try! FileManager.default.copyItem(at: source.appendingPathComponent(file), to: bundle.appendingPathComponent(file))
        }
        let cc = Process()
        cc.executableURL = URL(fileURLWithPath: "/usr/bin/cc")
        cc.arguments = ["-shared", "-fPIC", "-O2", "-Wall", "-Werror", "-o", bundle.appendingPathComponent("fixture.so").path,
                        source.appendingPathComponent("fixture.c").path]
        try! cc.run()
        cc.waitUntilExit()
        precondition(cc.terminationStatus == 0, "cc could not build Tests/Fixtures/lv2/midihub-fixture.lv2/fixture.c")
        return folder
    }()

    /// The fixture's plugins, alone on the search path.
    static let plugins = InstalledPlugins(searchPath: folder.path)
}
