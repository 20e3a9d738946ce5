/// Why a patch cannot play a song offline (`PatchRendering`): the problem and the fix, one
/// line each.
///
/// - Thread: any (a plain value).
public struct PatchRenderError: Error, Sendable {
    public let problem: String
    public let fix: String
}
