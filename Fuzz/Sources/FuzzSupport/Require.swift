/// Stops with `message` when `condition` is false: a property the code under test promises was broken.
///
/// Not `precondition`: the fuzz build is optimized, and an optimized `precondition` traps without its message,
/// while `fatalError` always prints it above libFuzzer's stack trace.
public func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
