import ArgumentParser
import SMP
import SMPFleet
import SMPKit

/// A device command's invocation, worked out once when the command starts
/// (``GlobalOptions/invocation()``): the config file read once, the layers of settings resolved
/// (``LinkResolution``), and the one device or the many devices it names. Commands connect, learn
/// their transfer defaults and print pasteable command lines through it.
struct Invocation: Sendable {
    /// The devices an invocation names.
    enum Devices: Sendable {
        /// One device, with its settings.
        case one(LinkResolution)
        /// Many (`--targets`, a selector), each with its own link settings; some may stand for a
        /// selector that matched nothing (``ResolvedTargets/unmatched``).
        case many(ResolvedTargets)
    }

    /// The options as given.
    let global: GlobalOptions
    /// The devices.
    let devices: Devices
    /// The settings as one device's: for many devices, what the same options resolve to as a
    /// single connection (an error for a selector, or for `--targets` without a connection).
    let settings: Result<LinkResolution, CLIError>
    /// The upload window a profile or the config file's defaults give (`fs put`/`fs get` take it
    /// too), for one device or many.
    let window: Int?
    /// The upload chunk alignment a profile or the config file's defaults give.
    let align: Int?

    /// An invocation whose transfer defaults come from `layers` (``LinkResolution/transferDefaults(in:)``).
    init(global: GlobalOptions, devices: Devices, settings: Result<LinkResolution, CLIError>, layers: [LinkResolution.Layer]) {
        self.global = global
        self.devices = devices
        self.settings = settings
        (window, align) = LinkResolution.transferDefaults(in: layers)
    }

    /// Whether a device is reached over DTLS without checking its certificate (`verify=0`):
    /// the invocation warns once, however many devices it names.
    var verifiesNoDTLSCertificate: Bool {
        let connections: [ConnectionString] =
            switch devices {
            case .one(let resolution): [resolution.connection]
            case .many(let resolved): resolved.targets.map(\.connection)
            }
        return connections.contains { $0.options.dtls.isEnabled && $0.options.dtls.verify == false }
    }

    /// The many-device run, when the invocation names many devices.
    var fleetRun: FleetCommandRun? {
        guard case .many(let resolved) = devices else { return nil }
        return FleetCommandRun(global: global, targets: resolved.targets, unmatched: resolved.unmatched)
    }

    /// The settings as one device's, when they resolve to one (``settings``).
    private var resolved: LinkResolution? {
        switch settings {
        case .success(let resolution): return resolution
        case .failure: return nil
        }
    }

    /// The global options that reach the same device with the same settings when pasted into
    /// another shell (``LinkResolution/invocationArguments``); when the settings do not resolve to
    /// one device, the options as given.
    var invocationArguments: [String] {
        resolved?.invocationArguments ?? global.link.givenArguments
    }

    /// `words` (`smpctl`, a subcommand and its arguments) as a command line that runs when pasted
    /// into another shell: the global options that reach the same device with the same settings
    /// are added (``invocationArguments``: `-p`, `-c`, `--timeout`, `--retries`), and every word
    /// is quoted for the shell. The "next:" and "run this to continue" lines.
    func commandLine(_ words: [String]) -> String {
        ShellQuoting.commandLine(words + invocationArguments)
    }

    /// Opens a new connection to the device; the connection's `timeout` and `retries` become the
    /// client's configuration (``SMPConnection``).
    ///
    /// - Throws: the ``CLIError`` of settings that name no single device, or the connection's failure.
    func connect() async throws -> SMPClient {
        let connection = try settings.get().connection
        return try await SMPConnection.open(connection, logger: global.link.makeLogger(label: "smp"))
    }

    /// Connects, runs `body`, closes, and reports any failure (see ``withConnection(_:)``).
    /// When the invocation names many devices (`--targets`, a selector), runs `body` on each of
    /// them at once instead (``FleetCommandRun``).
    func withClient(_ body: @Sendable (SMPClient, Output) async throws -> Void) async throws {
        if let run = fleetRun {
            try await run.run(body)
        } else {
            try await withConnection(body)
        }
    }

    /// Connects to one device and runs `body`, like ``withClient(_:)``, for a command that cannot
    /// serve many at once (`reason` says why, and what to use instead).
    func withOneClient(because reason: String, _ body: @Sendable (SMPClient, Output) async throws -> Void) async throws {
        if fleetRun != nil {
            let failure = CLIError(.usage, "this command runs on one device, and the connection names many", hint: reason)
            global.output.report(failure)
            throw ExitCode(failure.status.rawValue)
        }
        try await withConnection(body)
    }

    /// Connects, runs `body` with the client, closes, and turns every failure into a report and exit
    /// code. An `ExitCode` from `body` (which has reported its outcome itself, such as a partial
    /// result) passes through as it is.
    private func withConnection(_ body: @Sendable (SMPClient, Output) async throws -> Void) async throws {
        let output = global.output
        do {
            let client = try await connect()
            do {
                try await body(client, output)
            } catch let exit as ExitCode {
                await client.close()
                throw exit
            } catch {
                let failure = await LinkOptions.failure(of: error, client: client)
                await client.close()
                throw failure
            }
            await client.close()
        } catch let exit as ExitCode {
            throw exit
        } catch {
            let failure = CLIError(error)
            output.report(failure)
            throw ExitCode(failure.status.rawValue)
        }
    }
}
