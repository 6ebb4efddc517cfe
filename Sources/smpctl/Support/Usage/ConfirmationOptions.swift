import ArgumentParser
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// `--yes` (`-y`) for a command that does something drastic to the device: without it the
/// command asks on the terminal first, and refuses when there is no terminal to ask on.
struct ConfirmationOptions: ParsableArguments {
    @Flag(name: [.customShort("y"), .long], help: "Do not ask for confirmation.")
    var yes = false

    /// Asks `question` (a `[y/N]` prompt on standard error) unless `--yes` was given. Throws a
    /// usage error without a terminal and an interruption (nothing was sent) for any answer but
    /// y/yes; `action` names what would be done ("erase the storage partition"), `consequence`
    /// what that means when the action alone does not say it.
    func confirm(_ question: String, action: String, consequence: String? = nil) throws {
        guard !yes else { return }
        try requireTerminal(action: action, consequence: consequence)
        Output.write("\(question) [y/N] ", to: .standardError)
        let answer = readLine()?.trimmingSpaces.lowercased() ?? ""
        guard answer == "y" || answer == "yes" else {
            throw CLIError(.interrupted, "cancelled: did not \(action) (nothing was sent)")
        }
    }

    /// Throws the usage error `confirm` throws without a terminal (and without `--yes`), so a
    /// command that must read the device to word its question can refuse before connecting.
    func requireTerminal(action: String, consequence: String? = nil) throws {
        guard !yes, isatty(STDIN_FILENO) != 1 else { return }
        throw CLIError(
            .usage, "refusing to \(action) without confirmation: standard input is not a terminal",
            hint: consequence.map { "\($0); add --yes if that is what you want" } ?? "add --yes to \(action) without asking")
    }
}
