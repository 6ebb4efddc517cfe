import CBOR
import SMP

extension OSGroup {
    /// OS/application info (cmd 7), as Zephyr's `os_mgmt_info()`: each known character of
    /// `format` selects a field; the output lists them in the fixed order s n r v b m p i o,
    /// space-separated; no or an empty format means `s`; any unknown character is OS error 2;
    /// output that does not fit the buffer (NUL included) is rc 7.
    func info(_ request: SimulatedRequest, configuration: VirtualDeviceConfiguration) throws(SimulatedError) -> CBORMap {
        let format = try request.fields(["format": .text]).text("format") ?? ""
        let identity = configuration.identity
        let fields: [(Character, String?)] = [
            ("s", identity.kernelName), ("n", identity.nodeName), ("r", identity.release), ("v", identity.version),
            ("b", identity.buildDate), ("m", identity.machine), ("p", identity.processor), ("i", identity.platform),
            ("o", identity.operatingSystem),
        ]
        let available = Set(fields.compactMap { $0.1 == nil ? nil : $0.0 })
        var selected = Set<Character>()
        // Zephyr counts bytes: a multi-byte character is as invalid as an unknown letter.
        for byte in format.utf8 {
            let character = Character(Unicode.Scalar(byte))
            if character == "a" {
                selected = available
            } else if byte < 0x80, available.contains(character) {
                selected.insert(character)
            } else {
                throw .groupError(OSGroupError.invalidFormat)
            }
        }
        if selected.isEmpty { selected = ["s"] }
        let output = fields.compactMap { field in selected.contains(field.0) ? field.1 : nil }.joined(separator: " ")
        guard output.utf8.count < configuration.infoMaximumResponseSize else { throw .returnCode(.messageTooLarge) }
        return ["output": .text(output)]
    }

    /// Bootloader info (cmd 8): no query → the bootloader's name; `"mode"` → the MCUboot mode
    /// and, with downgrade prevention, `"no-downgrade": true`; any other query → OS error 3.
    func bootloaderInfo(
        _ request: SimulatedRequest, configuration: VirtualDeviceConfiguration
    ) throws(SimulatedError) -> CBORMap {
        let fields = try request.fields(["query": .text])
        guard let query = fields.text("query") else { return ["bootloader": .text(configuration.bootloaderName)] }
        guard query == "mode" else { throw .groupError(OSGroupError.queryYieldsNoAnswer) }
        var answer: CBORMap = ["mode": .int(configuration.bootloaderMode.rawValue)]
        if configuration.noDowngrade { answer["no-downgrade"] = .bool(true) }
        return answer
    }
}
