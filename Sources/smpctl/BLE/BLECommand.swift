import ArgumentParser

/// `smpctl ble`: Bluetooth LE helpers.
struct BLECommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ble",
        abstract: "Bluetooth LE: find SMP devices around, pair them and manage bonds (through BlueZ).",
        subcommands: [BLEScanCommand.self, BLEPairCommand.self, BLEBondsCommand.self, BLEUnpairCommand.self])
}
