import ArgumentParser
import FoundationEssentials
import SMPFleet
import SMPKit

extension GlobalOptions {
    /// This invocation, worked out once (``Invocation``): the run's display (`--progress`, `-q`)
    /// set, the `--log-file` opened, the config file read once, and the one device or the many
    /// devices it names. A failure (a log file that cannot be opened, no device, a bad config
    /// file, a selector that matches nothing, a bad targets file) is reported here and ends the command.
    func invocation() async throws -> Invocation {
        ProgressDisplay.configure(mode: display.progress, quiet: display.quiet)
        do {
            try link.openLogFile()
            return try await resolveInvocation()
        } catch {
            output.report(error)
            throw ExitCode(error.status.rawValue)
        }
    }

    /// The invocation from these options, `environment` and the config file it names, which is
    /// read once, when first needed.
    ///
    /// Many devices: `--targets FILE`, or a connection that is a selector of many devices
    /// (`serial:vid=2fe3`, `udp:10.0.0.1-20`, `ble:name=Zephyr*`, from `-c`, a profile or the
    /// environment), each device with its own link settings resolved; otherwise one device.
    func resolveInvocation(environment: [String: String] = ProcessInfo.processInfo.environment) async throws(CLIError) -> Invocation {
        let config = ConfigLoader(store: ConfigStore.standard(environment: environment))
        let profile = link.profile ?? LinkResolution.environmentProfile(environment)
        let layers = { () throws(CLIError) in
            try LinkResolution.layers(commandLine: link.commandLineLayer, profileOption: link.profile, environment: environment, config: config)
        }
        let found: [DeviceTarget]
        let resolved: [LinkResolution.Layer]
        if let file = fleet.targets {
            if link.connection != nil {
                throw CLIError(.usage, "-c and --targets both name devices", hint: "give one of them: the file's lines are connections, selectors or profiles")
            }
            found = try await resolveTargets(selector: nil, targetsFile: file, config: config, environment: environment)
            resolved = try layers()
        } else {
            let named = Result(catching: layers)
            let text = named.flatMap { stack in Result { () throws(CLIError) in try LinkResolution.connectionText(in: stack).text } }
            guard case .success(let text) = text, let selector = try Self.selector(text), selector.mayMatchMany else {
                if !fleet.report.isEmpty || fleet.jobs != nil {
                    throw CLIError(.usage, "--report and --jobs are for many devices", hint: "name several with --targets FILE or a selector such as -c 'udp:192.0.2.10-20' (docs/many-devices.md)")
                }
                let resolution = try LinkResolution(layers: try named.get(), profile: profile)
                return Invocation(global: self, devices: .one(resolution), settings: .success(resolution))
            }
            found = try await resolveTargets(selector: selector.text, targetsFile: nil, config: config, environment: environment)
            resolved = try named.get()
        }
        let targets = try found.map { (target) throws(CLIError) in
            let resolution = try LinkResolution(layers: resolved, profile: profile, target: target)
            return DeviceTarget(name: target.name, connection: resolution.connection, identity: target.identity)
        }
        let settings = Result { () throws(CLIError) in try LinkResolution(layers: resolved, profile: profile) }
        return Invocation(global: self, devices: .many(targets), settings: settings)
    }

    /// `text` as a selector; nil when it is not one, or when it is a connection string with a
    /// mistake (the one-device path reports that, naming where the string came from).
    private static func selector(_ text: String) throws(CLIError) -> TargetSelector? {
        do {
            return TargetSelector(try DeviceSelection(parsing: text))
        } catch {
            switch error {
            case .connection: return nil
            // A selector's own mistake (a range that runs downwards, an unknown filter) is reported as such.
            case .selector: throw CLIError(targetSelection: TargetSelectionError(error))
            }
        }
    }
}
