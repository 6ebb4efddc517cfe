import ArgumentParser

/// `smpctl simulate` (being written).
struct SimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "simulate", abstract: "Serve a virtual SMP device.")
}
