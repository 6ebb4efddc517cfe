import ArgumentParser

extension GlobalOptions {
    /// Runs a check made before connecting (argument values, a confirmation); a failure is
    /// reported like any other: the message (and the error document with `--json`) and its exit status.
    func preflight<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            let failure = CLIError(error)
            output.report(failure)
            throw ExitCode(failure.status.rawValue)
        }
    }
}
