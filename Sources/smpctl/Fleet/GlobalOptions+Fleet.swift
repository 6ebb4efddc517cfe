import ArgumentParser
import FoundationEssentials
import SMPFleet
import SMPKit

extension GlobalOptions {
    /// The many-device run this invocation asks for: `--targets FILE`, or a connection that is a
    /// selector of many devices (`serial:vid=2fe3`, `udp:10.0.0.1-20`, `ble:name=Zephyr*`, from
    /// `-c`, a profile or the environment); nil for one device. A selector that matches nothing,
    /// or a bad targets file, is reported here and ends the command.
    func fleetRun() async throws -> FleetCommandRun? {
        do {
            guard let targets = try await fleetTargets() else { return nil }
            return FleetCommandRun(global: self, targets: targets)
        } catch {
            output.report(error)
            throw ExitCode(error.status.rawValue)
        }
    }

    /// The devices when there are many to serve, each with its own link settings resolved.
    private func fleetTargets() async throws(CLIError) -> [DeviceTarget]? {
        let found: [DeviceTarget]
        if let file = fleet.targets {
            if link.connection != nil {
                throw CLIError(.usage, "-c and --targets both name devices", hint: "give one of them: the file's lines are connections, selectors or profiles")
            }
            found = try await resolveTargets(selector: nil, targetsFile: file)
        } else {
            guard let text = try? link.connectionText(), let selector = try Self.selector(text), selector.mayMatchMany else {
                if !fleet.report.isEmpty || fleet.jobs != nil {
                    throw CLIError(.usage, "--report and --jobs are for many devices", hint: "name several with --targets FILE or a selector such as -c 'udp:192.0.2.10-20' (docs/many-devices.md)")
                }
                return nil
            }
            found = try await resolveTargets(selector: selector.text, targetsFile: nil)
        }
        return try found.map(link.resolving)
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

extension LinkOptions {
    /// `target` with this invocation's settings for it, by the usual precedence (``LinkResolution``):
    /// its connection takes the place of `-c`, and a timeout or retries that a layer sets are put
    /// into its options, so that each device keeps its own.
    func resolving(_ target: DeviceTarget) throws(CLIError) -> DeviceTarget {
        var options = self
        options.connection = target.connection.description
        let resolved = try options.resolution()
        var connection = resolved.connection
        if resolved.timeoutOrigin != nil { connection.options.timeout = resolved.configuration.timeout.milliseconds / 1000 }
        if resolved.retriesOrigin != nil { connection.options.retries = resolved.configuration.retries }
        return DeviceTarget(name: target.name, connection: connection, identity: target.identity)
    }
}
