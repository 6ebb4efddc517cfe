import ArgumentParser
import JSON

/// One item of a command that walks several (a statistics group of `stat all`) that could not be
/// read, and why. Such a command keeps going, prints what it read, names each failed item, and
/// exits with the first failure's code (docs/exit-codes.md).
struct ItemFailure {
    /// The item, as the user names it (a statistics group's name).
    let item: String
    /// What went wrong.
    let error: CLIError

    /// `{"item", "error": {…}}`: the item's name and the error object of an error document.
    var json: JSONValue {
        .object([("item", .string(item)), ("error", error.jsonObject)])
    }

    /// After a partial result: reports each failure through `output` (`error: NOUN ITEM: message`,
    /// `hint: …` on standard error; the result's document already names them) and exits with the
    /// first one's code; does nothing without failures.
    static func exit(after failures: [ItemFailure], noun: String, output: Output) throws(ExitCode) {
        guard let first = failures.first else { return }
        for failure in failures {
            var named = failure.error
            named.message = "\(noun) \(failure.item): \(named.message)"
            output.report(named, document: false)
        }
        throw ExitCode(first.error.status.rawValue)
    }
}
