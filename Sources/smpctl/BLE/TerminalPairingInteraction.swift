import FoundationEssentials
import SMPBluetooth
#if canImport(Glibc)
import Glibc
#endif

/// Pairing questions asked at the terminal: the question on standard error, the answer read from
/// standard input. Without a terminal a question is refused at once, naming the option that gives
/// the answer beforehand; a passkey to type on the device is printed either way.
struct TerminalPairingInteraction: BLEPairingInteraction {
    func passkey(for device: BLEDevice) async throws(BLEPairingRefusal) -> UInt32 {
        try requireTerminal(
            "the device asks for the passkey it displays, and standard input is not a terminal to ask it at",
            hint: "give it beforehand: -c '\(connection(device))?passkey=NNNNNN', or smpctl ble pair \(device.address) --passkey NNNNNN")
        for _ in 0..<3 {
            Output.write("Enter the passkey shown on \(Self.name(device)) (6 digits): ", to: .standardError)
            guard let line = readLine() else { break }
            let text = line.trimmingSpaces
            if text.count == 6, text.allSatisfy(\.isASCII), let passkey = UInt32(text) { return passkey }
            Output.write("expected six digits, such as 012345\n", to: .standardError)
        }
        throw BLEPairingRefusal("no passkey was entered")
    }

    func display(passkey: UInt32, for device: BLEDevice) async {
        Output.write("Passkey for \(Self.name(device)): \(BLEPasskey.sixDigits(passkey)) — type it on the device\n", to: .standardError)
    }

    func confirm(passkey: UInt32, for device: BLEDevice) async throws(BLEPairingRefusal) -> Bool {
        let number = BLEPasskey.sixDigits(passkey)
        try requireTerminal(
            "the device asks to confirm that it displays \(number), and standard input is not a terminal to ask at",
            hint: "pair once at a terminal (smpctl ble pair \(device.address)), or accept the number unseen with "
                + "-c '\(connection(device))?confirm=1' or smpctl ble pair --confirm (no protection against a man in the middle)")
        Output.write("Does \(Self.name(device)) show \(number)? [y/N] ", to: .standardError)
        let answer = readLine()?.trimmingSpaces.lowercased() ?? ""
        return answer == "y" || answer == "yes"
    }

    private func requireTerminal(_ reason: String, hint: String) throws(BLEPairingRefusal) {
        guard isatty(STDIN_FILENO) == 1 else { throw BLEPairingRefusal(reason, hint: hint) }
    }

    private func connection(_ device: BLEDevice) -> String { "ble:\(device.address)" }

    /// `Zephyr (C0:FF:EE:00:00:01)`, or the address alone.
    static func name(_ device: BLEDevice) -> String {
        device.name.map { "\($0) (\(device.address))" } ?? device.address
    }
}
