/// The software version of this midihub build: `midihub --version` prints it and the
/// daemon reports it in its `hello` answer. One place, so the two can never disagree.
///
/// - Thread: any (a constant).
public enum MidihubVersion {
    /// Semantic version: the minor number grows with each landed milestone.
    public static let current = "0.6.0"
}
