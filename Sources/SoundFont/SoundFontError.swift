/// Why a SoundFont was refused: the chunk, the byte offset in the file, what is wrong and
/// what to do about it.
///
/// `description` reads `FluidR3_GM.sf2: pdta/pbag at byte 1234: size 10 is not a multiple
/// of 4 (fix: the file is damaged; get a fresh copy of the SoundFont)`.
///
/// - Thread: any (a plain value).
public struct SoundFontError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    /// The chunk path, e.g. `RIFF`, `sdta/smpl`, `pdta/shdr`.
    public var chunk: String
    /// Where in the file the problem is.
    public var offset: Int
    public var problem: String
    public var fix: String

    public init(file: String, chunk: String, offset: Int, problem: String, fix: String = SoundFontError.damaged) {
        self.file = file
        self.chunk = chunk
        self.offset = offset
        self.problem = problem
        self.fix = fix
    }

    /// The fix for a file whose structure is broken.
    public static let damaged = "the file is damaged or not a SoundFont; get a fresh copy of it"

    public var description: String { "\(file): \(chunk) at byte \(offset): \(problem) (fix: \(fix))" }
}
