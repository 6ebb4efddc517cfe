import ArgumentParser
import SMP

/// `smpctl image erase [--slot N]`
struct ImageEraseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "erase", abstract: "Erase a slot (default: the one opposite the running image); sent once, never retried.")

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("Absolute slot index: image × 2 + slot (default: chosen by the device, normally 1).", valueName: "n"))
    var slot: UInt64?

    func run() async throws {
        try await global.withClient { client, output in
            try await WaitSpinner.around("erasing the slot", json: output.json) { try await client.send(ImageErase(slot: slot)) }
            output.emit(
                .object([("erased", .bool(true)), ("slot", slot.map(JSONValue.uint) ?? .null)]),
                human: slot.map { "erased slot \($0)" } ?? "erased the slot opposite the running image")
        }
    }
}
