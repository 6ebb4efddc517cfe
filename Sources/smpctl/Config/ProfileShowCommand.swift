import ArgumentParser
import FoundationEssentials
import JSON
import SMP
import SMPKit

/// `smpctl profile show NAME [--json]`
struct ProfileShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show a profile: what it sets, and what `-p NAME` uses with the defaults and the environment.")

    @Argument(help: ArgumentHelp("The profile (see `smpctl profile list`).", valueName: "name"))
    var name: String

    @OptionGroup var format: JSONOutputOption

    func run() throws {
        let output = format.output
        try ProfileCommand.reporting(output) {
            let store = try ProfileCommand.store()
            // One read of the file: for the profile's own settings and for what `-p NAME` resolves to.
            let config = ConfigLoader(store: store)
            let file = try config.file()
            let settings = try ProfileCommand.settings(name, in: file, store: store)
            var lines = ["profile \(name) in \(store.path):"]
            if let connection = settings.connection { lines.append("  connection: \(connection)") }
            for (key, value) in settings.orderedOptions { lines.append("  \(key): \(value)") }
            if let window = settings.window { lines.append("  window: \(window)") }
            if let align = settings.align { lines.append("  align: \(align)") }
            // A profile without a connection of its own may still get one from the environment or the defaults.
            let uses: JSONValue
            do throws(CLIError) {
                let layers = try LinkResolution.layers(
                    commandLine: LinkResolution.Layer(source: .commandLine, settings: ConfigSettings()), profileOption: name,
                    environment: ProcessInfo.processInfo.environment, config: config)
                let resolved = try LinkResolution(layers: layers, profile: name)
                // With the built-in timeout and retries where no layer sets them.
                var effective = resolved.connection
                let builtIn = SMPClientConfiguration()
                effective.options.timeout = effective.options.timeout ?? builtIn.timeout.milliseconds / 1000
                effective.options.retries = effective.options.retries ?? builtIn.retries
                uses = .object([
                    ("connection", .string(effective.description)),
                    ("window", resolved.window.map { .int(Int64($0)) } ?? .null),
                    ("align", resolved.align.map { .int(Int64($0)) } ?? .null),
                ])
                lines.append(
                    "-p \(name) uses: \(effective.description)" + (resolved.window.map { ", window \($0)" } ?? "")
                        + (resolved.align.map { ", align \($0)" } ?? ""))
            } catch {
                uses = .null
                lines.append("-p \(name) reaches no device: \(error.message)")
            }
            output.emit(
                .object([("name", .string(name)), ("file", .string(store.path)), ("settings", ProfileCommand.json(settings)), ("uses", uses)]),
                human: lines.joined(separator: "\n"))
        }
    }
}
