import ArgumentParser
import JSON
import SMP

/// `smpctl image erase [--slot N] [--yes]`
struct ImageEraseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "erase", abstract: "Erase a slot (default: the one opposite the running image); asks first, sent once, never retried.",
        discussion: """
            On a terminal it reads the image list and asks for confirmation (y/N), naming the \
            slot and the version it holds. Without a terminal (scripts, pipes) it refuses unless \
            --yes is given.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("Absolute slot index: 2 * image + slot (default: chosen by the device, normally 1).", valueName: "n"))
    var slot: UInt64?

    @OptionGroup var confirmation: ConfirmationOptions

    func run() async throws {
        let action = "erase the slot"
        try global.preflight { try confirmation.requireTerminal(action: action) }
        try await global.withClient { client, output in
            if !confirmation.yes {
                let list = try await client.send(ImageState())
                try confirmation.confirm(question(list), action: action)
            }
            try await WaitSpinner.around("erasing the slot", json: output.json) { try await client.send(ImageErase(slot: slot)) }
            output.emit(
                .object([("erased", .bool(true)), ("slot", slot.map(JSONValue.uint) ?? .null)]),
                human: slot.map { "erased slot \($0)" } ?? "erased the slot opposite the running image")
        }
    }

    /// "Erase slot 1 of image 0 (version 1.1.0, hash 5a5a5a5a)?", from the device's list.
    private func question(_ list: ImageStateList) -> String {
        let image = slot.map { $0 / 2 } ?? 0
        let slotInImage = slot.map { $0 % 2 } ?? 1
        let held = list.images.first { $0.image == image && $0.slot == slotInImage }
        let contents = held.map { entry in
            "version \(entry.version)" + (entry.hash.map { ", hash \(Hex.string($0.prefix(4)))" } ?? "")
                + (entry.active ? ", RUNNING" : "")
        } ?? "listed as empty"
        return "Erase slot \(slotInImage) of image \(image) (\(contents))?"
    }
}
