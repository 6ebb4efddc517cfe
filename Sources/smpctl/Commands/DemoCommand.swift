import ArgumentParser

/// `smpctl demo` (being written).
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "demo", abstract: "Run a session against the built-in virtual device.")
}
