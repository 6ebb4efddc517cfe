import SMP

extension SMPNextStep {
    /// The smpctl command that takes the step, word by word.
    var commandWords: [String] {
        switch self {
        case .listSerialPorts: ["smpctl", "ports"]
        case .scanBluetooth: ["smpctl", "ble", "scan", "--all"]
        case .setDeviceClock: ["smpctl", "os", "datetime", "--set", "now"]
        case .listImages: ["smpctl", "image", "list"]
        case .freeUploadSlot: ["smpctl", "image", "erase"]
        case .testImage(let hash): ["smpctl", "image", "test", hash ?? "HASH"]
        case .resetDevice: ["smpctl", "os", "reset"]
        case .listSUITManifests: ["smpctl", "suit", "manifests"]
        }
    }

    /// The step as the end of a hint, naming smpctl's command: "`smpctl ports` lists them".
    var cliClause: String {
        let command = "`\(ShellQuoting.commandLine(commandWords))`"
        switch self {
        case .listSerialPorts: return "\(command) lists them"
        case .scanBluetooth: return "\(command) lists the devices around"
        case .setDeviceClock: return "set it with \(command)"
        case .listImages, .listSUITManifests: return "run \(command) to see the device's state"
        case .freeUploadSlot: return "`\(ShellQuoting.commandLine(SMPNextStep.listImages.commandWords))` shows it, and \(command) or a reset frees it"
        case .testImage: return "mark it with \(command)"
        case .resetDevice: return "reset it with \(command)"
        }
    }

    /// A library's hint followed by its next step in smpctl's words; nil when there is neither.
    static func cliHint(_ hint: String?, _ step: SMPNextStep?) -> String? {
        let parts = [hint, step?.cliClause].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }
}
