import ArgumentParser

/// `smpctl ble`: Bluetooth LE helpers.
struct BLECommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ble",
        abstract: "Bluetooth LE: find SMP devices around (through BlueZ).",
        subcommands: [BLEScanCommand.self])
}
