import Foundation

/// Runs a program as a child process and reports its wall time and CPU time (user +
/// system from `wait4`, for that child alone).
enum ChildProcess {
    struct Usage {
        var seconds: Double
        /// User plus system CPU time: unlike wall time, not inflated by other load on the machine.
        var cpuSeconds: Double
    }

    /// Runs `executable` with `arguments` (output discarded) and waits for it; throws
    /// unless it exits 0.
    static func run(_ executable: URL, _ arguments: [String]) throws -> Usage {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)

        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let start = ContinuousClock.now
        let spawnStatus = posix_spawn(&pid, executable.path, &actions, nil, argv, environ)
        guard spawnStatus == 0 else {
            throw BenchmarkError(description: "cannot start \(executable.path): \(String(cString: strerror(spawnStatus)))")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let elapsed = ContinuousClock.now - start
        let exited = status & 0x7F == 0
        guard exited && (status >> 8) & 0xFF == 0 else {
            throw BenchmarkError(description: "\(executable.lastPathComponent) \(arguments.joined(separator: " ")) failed (status \(status))")
        }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) * 1e-6 }
        return Usage(seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18,
                     cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime))
    }

    /// The fastest of `repetitions` runs.
    static func best(of repetitions: Int, _ executable: URL, _ arguments: [String]) throws -> Usage {
        var best = Usage(seconds: .infinity, cpuSeconds: .infinity)
        for _ in 0..<repetitions {
            let usage = try run(executable, arguments)
            best.seconds = min(best.seconds, usage.seconds)
            best.cpuSeconds = min(best.cpuSeconds, usage.cpuSeconds)
        }
        return best
    }
}

/// The two programs the render rows compare.
struct Renderers {
    var midihub: URL
    var fluidsynth: URL
    var soundFont: URL
    var presets: URL

    static let soundFontPath = "/usr/share/sounds/sf2/FluidR3_GM.sf2"

    /// The release `midihub` that `bench/run` builds in the repository, FluidSynth and its GM font.
    static func find(in context: BenchmarkContext) throws -> Renderers {
        let midihub = context.repository.appendingPathComponent(".build/release/midihub")
        guard FileManager.default.isExecutableFile(atPath: midihub.path) else {
            throw BenchmarkError(description: "\(midihub.path) is missing (fix: run `swift build -c release` in the repository, as bench/run does)")
        }
        let fluidsynth = try Timing.executable("fluidsynth", package: "fluidsynth")
        guard FileManager.default.fileExists(atPath: soundFontPath) else {
            throw BenchmarkError(description: "\(soundFontPath) is missing (fix: install the Debian package 'fluid-soundfont-gm')")
        }
        return Renderers(midihub: midihub, fluidsynth: fluidsynth, soundFont: URL(fileURLWithPath: soundFontPath),
                         presets: context.repository.appendingPathComponent("patches/presets"))
    }

    /// Which midihub instrument renders.
    enum Instrument: String, Sendable {
        /// The built-in subtractive synth with the repository's preset bank.
        case synth
        /// The SoundFont instrument with FluidSynth's font.
        case soundfont
    }

    /// `midihub render` at 48 kHz through `instrument`.
    func midihubArguments(_ file: URL, output: URL, instrument: Instrument = .synth) -> [String] {
        let sound = instrument == .synth ? ["--preset-bank", presets.path] : ["--soundfont", soundFont.path]
        return ["render", file.path, "-o", output.path, "--sample-rate", "48000"] + sound
    }

    /// FluidSynth offline on one core at 48 kHz, as the issue prescribes; `extra` adds `-o` settings.
    func fluidsynthArguments(_ file: URL, output: URL, extra: [String] = []) -> [String] {
        ["-ni", "-o", "synth.cpu-cores=1", "-r", "48000"] + extra.flatMap { ["-o", $0] }
            + ["-F", output.path, soundFont.path, file.path]
    }
}
