import ArgumentParser
import JSON
import SMPBluetooth

/// `smpctl ble unpair ADDRESS`: removes a device's bond (and BlueZ's record of it).
struct BLEUnpairCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unpair",
        abstract: "Remove a Bluetooth LE device's bond from the adapter.",
        discussion: """
            Removes the device from bluetoothd (Adapter1.RemoveDevice): its keys and what BlueZ \
            knows of it. The device may keep its side of the bond: remove that on the device too \
            before pairing again.
            Examples: smpctl ble unpair C0:FF:EE:00:00:01

            Exit codes: 64 not an address; 69 no bluetoothd or adapter, or no such device (docs/ble.md).
            """)

    @Argument(help: ArgumentHelp("The device's address, e.g. C0:FF:EE:00:00:01.", valueName: "address"))
    var address: String

    @OptionGroup var adapter: BLEAdapterOption

    @OptionGroup var format: JSONOutputOption

    func validate() throws {
        let parts = address.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 6, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isHexDigit) }) else {
            throw ValidationError("ble unpair takes the device's address, such as C0:FF:EE:00:00:01, not \(address) (smpctl ble bonds lists them)")
        }
    }

    func run() async throws {
        let output = format.output
        do {
            let removed = try await BLEBonds.remove(address: address, adapter: adapter.adapter)
            let name = TerminalPairingInteraction.name(removed)
            output.emit(
                .object([("removed", BLEBondReport.json(removed))]),
                human: removed.isPaired ? "removed \(name) and its bond" : "removed \(name) (it was not paired)")
        } catch {
            let failure = CLIError(error)
            output.report(failure)
            throw ExitCode(failure.status.rawValue)
        }
    }
}
