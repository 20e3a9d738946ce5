import ArgumentParser
import Foundation
import SoundFont

/// `midihub soundfont FILE`: what a SoundFont holds — its presets by bank and program.
struct SoundFontCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soundfont",
        abstract: "List a SoundFont's presets by bank and program.",
        discussion: """
            Reads a SoundFont file (.sf2, or .sf3 with Vorbis-compressed samples, which \
            are decoded) and checks its structure: every count, offset and index. The \
            first line names the font and counts its presets, instruments and samples; \
            then one line per preset, BANK-PROGRAM and name, as fluidsynth's 'inst' \
            command prints them (bank 128 is the percussion kits). A damaged file gets \
            one line naming the chunk and the byte offset.

            --json prints the presets as an array, one object per line: \
            {"bank":0,"name":"Yamaha Grand Piano","program":0,"zones":10}

            Examples:
              midihub soundfont /usr/share/sounds/sf2/FluidR3_GM.sf2
              midihub soundfont /usr/share/sounds/sf2/FluidR3_GM.sf2 --json
              midihub soundfont /usr/share/sounds/sf3/MuseScore_General_Lite.sf3
            """
    )

    @Argument(help: "A SoundFont file (.sf2 or .sf3).")
    var file: String

    @Flag(help: "Print the presets as JSON, one object per line.")
    var json = false

    func run() throws {
        let font: SoundFont
        do {
            font = try SoundFont.open(file)
        } catch {
            throw CLIError(error)
        }
        let presets = font.presets.sorted { ($0.bank, $0.program) < ($1.bank, $1.program) }
        if json {
            try printJSON(presets.map { PresetListing(bank: $0.bank, program: $0.program, name: $0.name, zones: $0.zones.count) })
            return
        }
        print("\(font.name) (SoundFont \(font.version.major).\(font.version.minor)): \(font.presets.count) presets, "
            + "\(font.instruments.count) instruments, \(font.samples.count) samples")
        for preset in presets {
            print(String(format: "%03d-%03d %@", preset.bank, preset.program, preset.name))
        }
    }
}

/// One preset in `soundfont --json`.
private struct PresetListing: Encodable {
    var bank: Int
    var program: Int
    var name: String
    var zones: Int
}

extension CLIError {
    /// A font that cannot be read: exit 1 when the file cannot be read, 2 when the path is
    /// wrong (missing, a directory, a FIFO, too large) or it is not a valid SoundFont (the
    /// line names the chunk and byte offset).
    init(_ error: SoundFontError) {
        let place = ["file", "path"].contains(error.chunk) ? "" : "\(error.file): \(error.chunk) at byte \(error.offset): "
        self.init(place + error.problem, fix: error.fix,
                  exitCode: error.chunk == "file" ? CLIError.runtimeFailure : CLIError.badInput)
    }
}
