import ArgumentParser
import FoundationEssentials
import SMPKit

/// `smpctl profile add NAME -c CONNECTION [--timeout S] [--retries N] [--baud N] [--mtu N] [--window N] [--align N] [--replace]`
struct ProfileAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Save a connection and its settings under a name.",
        discussion: """
            Any other connection-string option goes in the connection string itself \
            (-c 'serial:/dev/ttyACM0?framing=raw&line=512'). The file is rewritten atomically; \
            other profiles and the defaults are kept (comments are not).
            The files a DTLS connection names (psk-file=, ca=, cert=, key=) are saved as absolute \
            paths; a PSK itself (psk=) is refused: a profile names the file that holds it.
            Example: smpctl profile add lab -c serial:/dev/ttyACM0 --baud 1000000 --timeout 5
            """)

    @Argument(help: ArgumentHelp("The profile's name: letters, digits, '.', '_', '-'.", valueName: "name"))
    var name: String

    @Option(
        name: [.customShort("c", allowingJoined: true), .customLong("connection")],
        help: ArgumentHelp("How to reach the device, e.g. udp:192.0.2.1, serial:/dev/ttyACM0, ble:name=Zephyr.", valueName: "connection-string"))
    var connection: String

    @Option(help: ArgumentHelp("Seconds to wait for each response.", valueName: "seconds"))
    var timeout: Double?

    @Option(help: ArgumentHelp("How often a lost response to a harmless request is retried.", valueName: "count"))
    var retries: Int?

    @Option(help: ArgumentHelp("Serial baud rate.", valueName: "rate"))
    var baud: Int?

    @Option(help: ArgumentHelp("Link MTU in bytes (UDP datagram, serial message, BLE ATT MTU).", valueName: "bytes"))
    var mtu: Int?

    @Option(help: ArgumentHelp("Upload chunks in flight (image upload, upgrade, fs put/get).", valueName: "n"))
    var window: Int?

    @Option(help: ArgumentHelp("Upload chunk alignment in bytes (image upload, upgrade).", valueName: "n"))
    var align: Int?

    @Flag(help: "Replace a profile of the same name.")
    var replace = false

    @OptionGroup var format: JSONOutputOption

    func validate() throws {
        try NumericRange.timeout.check(timeout)
        try NumericRange.retries.check(retries)
        try NumericRange.window.check(window)
        try NumericRange.align.check(align)
    }

    /// The options of connection text that name files: DTLS credentials.
    static let fileOptions: Set<String> = ["psk-file", "ca", "cert", "key"]

    /// `text` with each file it names (``fileOptions``) made absolute against `directory`, so that
    /// the profile works from any directory; everything else as written.
    static func absolutePaths(in text: String, from directory: String) -> String {
        DeviceSelection.replacingOptionValues(of: fileOptions, in: text) { path in
            guard !path.hasPrefix("/"), !path.isEmpty else { return String(path) }
            let relative = path.hasPrefix("./") ? path.dropFirst(2) : path
            return (directory.hasSuffix("/") ? directory : directory + "/") + relative
        }
    }

    func run() throws {
        let output = format.output
        try ProfileCommand.reporting(output) {
            if let problem = ConfigFile.problem(withName: name) {
                throw CLIError(.usage, "profile name \"\(name)\": \(problem)", hint: ConfigFile.nameRule)
            }
            let directory = FileManager.default.currentDirectoryPath
            var settings = ConfigSettings(connection: Self.absolutePaths(in: connection, from: directory), window: window, align: align)
            let given: [(String, String?)] = [
                ("timeout", timeout.map(LinkResolution.seconds)), ("retries", retries.map { "\($0)" }), ("baud", baud.map { "\($0)" }), ("mtu", mtu.map { "\($0)" }),
            ]
            for case let (key, value?) in given { settings.options[key] = value }
            do throws(ConfigProblem) {
                try settings.validate(at: [])
            } catch {
                throw CLIError(.usage, "profile \"\(name)\": \(error.keyPath.isEmpty ? "" : "--\(error.keyPath): ")\(error.message)", hint: error.hint)
            }
            let store = try ProfileCommand.store()
            try ProfileCommand.rewrite(store) { (file: inout ConfigFile) throws(CLIError) in
                if file.profiles[name] != nil && !replace {
                    throw CLIError(
                        .usage, "profile \"\(name)\" already exists in \(store.path)",
                        hint: "pass --replace to replace it, or choose another name (smpctl profile show \(ShellQuoting.quoted(name)))")
                }
                file.profiles[name] = settings
            }
            output.emit(
                .object([("name", .string(name)), ("file", .string(store.path)), ("settings", ProfileCommand.json(settings))]),
                human: "saved profile \(name) in \(store.path); use it with: smpctl -p \(ShellQuoting.quoted(name)) os info")
        }
    }
}
