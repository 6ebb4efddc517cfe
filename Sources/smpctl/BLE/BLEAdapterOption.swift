import ArgumentParser

/// `--adapter hciN`: the Bluetooth adapter a `ble` command uses.
struct BLEAdapterOption: ParsableArguments {
    @Option(help: ArgumentHelp("The Bluetooth adapter (default: the first).", valueName: "hciN"))
    var adapter: String?

    func validate() throws {
        if let adapter, !(adapter.hasPrefix("hci") && adapter.dropFirst(3).allSatisfy(\.isNumber) && adapter.count > 3) {
            throw ValidationError("--adapter expects an adapter name such as hci0, not \(adapter)")
        }
    }
}
