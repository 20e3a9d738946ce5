import Foundation

/// The `midihub` executable `swift test` built beside the test bundle: what the CLI tests
/// run, and the isolated plugin nodes' children (`midihub plugin-child`) in the tests.
public enum BuiltMidihub {
    /// `midihub` in the folder of the running test bundle (`.build/debug/`).
    public static var path: String {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = bundle.deletingLastPathComponent()
        // The bundle may be a directory (`….xctest/…`) or a plain file next to the products.
        while folder.path != "/" && folder.lastPathComponent.hasSuffix(".xctest") == false
            && !FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent("midihub").path) {
            folder.deleteLastPathComponent()
        }
        if folder.lastPathComponent.hasSuffix(".xctest") { folder.deleteLastPathComponent() }
        return folder.appendingPathComponent("midihub").path
    }
}
