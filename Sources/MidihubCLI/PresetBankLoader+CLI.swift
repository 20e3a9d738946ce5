import Sequencer
import Synth

extension PresetBankLoader {
    /// The preset bank for `render`, `play` and `synth`: `--preset-bank DIR` when
    /// given, else the search path of `PresetBankLoader`.
    /// - Throws: `CLIError` (exit 2) naming the bad file or the missing folder and the fix.
    /// - Thread: control.
    static func loadForCommandLine(override: String?) throws -> PresetBank {
        do {
            return try load(override: override).bank
        } catch {
            throw CLIError(error.problem, fix: error.fix, exitCode: CLIError.badInput)
        }
    }
}
