internal import CALSA
import Glibc

/// A failed ALSA library call: the C function, its negative error code and
/// `snd_strerror`'s text.
///
/// - Thread: any (a plain value).
public struct ALSAError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The C function that failed, e.g. `snd_seq_open`.
    public var function: String
    /// The negative errno-style code the function returned.
    public var code: Int32
    /// `snd_strerror(code)`.
    public var message: String

    public init(function: String, code: Int32) {
        self.function = function
        self.code = code
        self.message = String(cString: snd_strerror(code))
    }

    /// True when the sequencer device itself is missing or not permitted
    /// (`/dev/snd/seq` absent → ENOENT, not accessible → EACCES or EPERM).
    public var isNoSequencerDevice: Bool {
        function == "snd_seq_open" && [-ENOENT, -EACCES, -EPERM, -ENODEV].contains(code)
    }

    /// What the user can do about it, when there is a known fix.
    public var fix: String? {
        guard isNoSequencerDevice else { return nil }
        if code == -EACCES || code == -EPERM {
            return "join the 'audio' group: sudo usermod -aG audio $USER, then log in again"
        }
        return "load the sequencer module: sudo modprobe snd-seq"
    }

    /// One line naming the problem, e.g. `snd_seq_open failed: No such file or directory (-2)`,
    /// or for a missing device `no ALSA sequencer: /dev/snd/seq: No such file or directory`.
    public var problem: String {
        if isNoSequencerDevice {
            return "no ALSA sequencer: /dev/snd/seq: \(message)"
        }
        return "\(function) failed: \(message) (\(code))"
    }

    /// `problem` plus `(fix: …)` when a fix is known.
    public var description: String {
        guard let fix else { return problem }
        return "\(problem) (fix: \(fix))"
    }
}

/// Throws an `ALSAError` when an ALSA call returned a negative code; passes
/// non-negative results through.
@discardableResult
func check(_ function: String, _ result: Int32) throws(ALSAError) -> Int32 {
    if result < 0 { throw ALSAError(function: function, code: result) }
    return result
}
