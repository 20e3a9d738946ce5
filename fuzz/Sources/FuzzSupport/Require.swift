/// Stops the fuzz target with `message` when `condition` is false. Unlike `precondition`,
/// the message survives an optimized build, so the crash log says which property broke.
public func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
