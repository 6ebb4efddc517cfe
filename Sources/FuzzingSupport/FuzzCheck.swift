/// Stops the process when a fuzzer's property does not hold; libFuzzer reports it as a crash and
/// keeps the input, and the replay driver exits non-zero with the message.
public func fuzzRequire(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
