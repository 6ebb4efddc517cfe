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
            let invocation = try await resolveInvocation()
            if invocation.verifiesNoDTLSCertificate {
                output.note("warning: the device's DTLS certificate is not verified (verify=0): anyone on the path can pose as the device")
            }
            return invocation
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
    /// environment), each device with its own link settings resolved; otherwise one device, which
    /// `--report` makes a many-device run of one (for its summary and report).
    func resolveInvocation(environment: [String: String] = ProcessInfo.processInfo.environment) async throws(CLIError) -> Invocation {
        let config = ConfigLoader(store: ConfigStore.standard(environment: environment))
        let profile = link.profile ?? LinkResolution.environmentProfile(environment)
        let layers = { () throws(CLIError) in
            try LinkResolution.layers(commandLine: link.commandLineLayer, profileOption: link.profile, environment: environment, config: config)
        }
        if !fleet.targets.isEmpty {
            if link.connection != nil {
                throw CLIError(.usage, "-c and --targets both name devices", hint: "give one of them: the file's lines are connections, selectors or profiles")
            }
            let found = try await resolveTargets(selector: nil, targetsFiles: fleet.targets, config: config, environment: environment)
            let resolved = try layers()
            let settings = Result { () throws(CLIError) in try LinkResolution(layers: resolved, profile: profile) }
            return Invocation(global: self, devices: .many(try Self.targets(found, layers: resolved, profile: profile)), settings: settings, layers: resolved)
        }
        let named = Result(catching: layers)
        // The connection text is parsed here, once: one device, many, or a mistake.
        var parsed: Result<ConnectionString, ConnectionStringError>?
        if case .success(let stack) = named,
           case .success(let text) = Result(catching: { () throws(CLIError) in try LinkResolution.connectionText(in: stack).text }) {
            switch try Self.selection(text) {
            case .success(.many(let selector)):
                let found = try await resolveTargets(selector: TargetSelector(.many(selector)), targetsFiles: [], config: config, environment: environment)
                let many = CLIError(.usage, "\(selector) names many devices", hint: "a command for one device takes a connection string (docs/connection-strings.md)")
                return Invocation(global: self, devices: .many(try Self.targets(found, layers: stack, profile: profile)), settings: .failure(many),
                    layers: stack)
            case .success(.one(let connection)): parsed = .success(connection)
            case .failure(let mistake): parsed = .failure(mistake)
            }
        }
        if fleet.jobs != nil {
            throw CLIError(.usage, "--jobs is for many devices", hint: "name several with --targets FILE or a selector such as -c 'udp:192.0.2.10-20' (docs/many-devices.md)")
        }
        let stack = try named.get()
        // Without `parsed` the layers name no device, which resolving them reports.
        let resolution: LinkResolution
        if let parsed {
            resolution = try LinkResolution(layers: stack, profile: profile, parsed: parsed)
        } else {
            resolution = try LinkResolution(layers: stack, profile: profile)
        }
        // A report is a many-device run's: one device with --report (a station with one board) is a run of one.
        let devices: Invocation.Devices = fleet.report.isEmpty
            ? .one(resolution) : .many(ResolvedTargets(targets: [DeviceTarget(connection: resolution.connection)], unmatched: [:]))
        return Invocation(global: self, devices: devices, settings: .success(resolution), layers: stack)
    }

    /// Each of many devices with its own link settings from `layers`; a target that stands for a
    /// selector that matched nothing is kept as it is.
    private static func targets(_ found: ResolvedTargets, layers: [LinkResolution.Layer], profile: String?) throws(CLIError) -> ResolvedTargets {
        var targets: [DeviceTarget] = []
        for target in found.targets {
            guard found.unmatched[target] == nil else {
                targets.append(target)
                continue
            }
            let resolution = try LinkResolution(layers: layers, profile: profile, target: target)
            targets.append(DeviceTarget(name: target.name, connection: resolution.connection, identity: target.identity))
        }
        return ResolvedTargets(targets: targets, unmatched: found.unmatched)
    }

    /// `text` parsed: one device or many; a connection string's mistake is returned, to be
    /// reported naming where the text came from (``LinkResolution``); a selector's own mistake (a
    /// range that runs downwards, an unknown filter) is thrown as such.
    private static func selection(_ text: String) throws(CLIError) -> Result<DeviceSelection, ConnectionStringError> {
        do {
            return .success(try DeviceSelection(parsing: text))
        } catch {
            switch error {
            case .connection(let mistake): return .failure(mistake)
            case .selector: throw CLIError(targetSelection: TargetSelectionError(error))
            }
        }
    }
}
