import Foundation
import Synth
import UserFiles

/// Why the preset bank could not be loaded.
public enum PresetBankLoadError: Error, CustomStringConvertible {
    case notFound(searched: [String])
    case unreadable(path: String, reason: String)
    case empty(directory: String)
    case invalid(PresetError)

    /// What went wrong, without the fix.
    public var problem: String {
        switch self {
        case .notFound(let searched): "no preset bank found (searched \(searched.joined(separator: ", ")))"
        case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
        case .empty(let directory): "\(directory) holds no .preset files"
        case .invalid(let error): error.line > 0 ? "\(error.file):\(error.line): \(error.message)" : "\(error.file): \(error.message)"
        }
    }

    public var fix: String {
        switch self {
        case .notFound: "pass --preset-bank DIR or set MIDIHUB_PRESETS"
        case .unreadable: "check the file's permissions"
        case .empty: "point --preset-bank at the patches/presets folder"
        case .invalid(let error): error.fix
        }
    }

    public var description: String { "\(problem) (fix: \(fix))" }
}

/// Finds and reads the preset bank: the `.preset` files of one folder.
///
/// Search order: the folder given (`--preset-bank`), `$MIDIHUB_PRESETS`, a
/// `patches/presets` folder in or above the executable's folder (works from a checkout),
/// `<prefix>/share/midihub/presets` next to an installed executable, and
/// `/usr/local/share/midihub/presets`.
/// - Thread: control.
public enum PresetBankLoader {
    public static func candidateDirectories(override: String?) -> [String] {
        if let override { return [override] }
        var candidates: [String] = []
        if let env = ProcessInfo.processInfo.environment["MIDIHUB_PRESETS"], !env.isEmpty { candidates.append(env) }
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
        for _ in 0..<5 {
            candidates.append(folder.appendingPathComponent("patches/presets").path)
            folder.deleteLastPathComponent()
        }
        let installed = URL(fileURLWithPath: executable).deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(installed.appendingPathComponent("share/midihub/presets").path)
        candidates.append("/usr/local/share/midihub/presets")
        return candidates
    }

    /// Loads the first candidate folder that exists.
    /// - Returns: the bank and the folder it came from.
    public static func load(override: String? = nil) throws(PresetBankLoadError) -> (bank: PresetBank, directory: String) {
        let candidates = candidateDirectories(override: override)
        var isDirectory: ObjCBool = false
        guard let directory = candidates.first(where: {
            FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) && isDirectory.boolValue
        }) else {
            throw .notFound(searched: candidates)
        }
        return (try load(directory: directory), directory)
    }

    /// Reads every `*.preset` file of `directory` (sorted by name) into a bank.
    /// The largest preset file read: 1 MiB (a preset is a few hundred bytes).
    public static let presetSizeLimit = 1 << 20

    public static func load(directory: String) throws(PresetBankLoadError) -> PresetBank {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".preset") }.sorted()
        } catch {
            throw .unreadable(path: directory, reason: "\(error.localizedDescription)")
        }
        guard !names.isEmpty else { throw .empty(directory: directory) }
        var files: [(name: String, text: String)] = []
        for name in names {
            let path = directory + "/" + name
            let bytes: [UInt8]
            do {
                bytes = try UserFile.read(path, what: "a preset", limit: presetSizeLimit)
            } catch {
                throw .unreadable(path: path, reason: error.problem)
            }
            files.append((path, String(decoding: bytes, as: UTF8.self)))
        }
        do {
            return try PresetBank(files: files)
        } catch {
            throw .invalid(error)
        }
    }
}
