import ArgumentParser
import FoundationEssentials
import JSON
import SMP
import SMPFleet
import SMPLocalFiles

/// `smpctl fs get REMOTE [LOCAL|-] [--window N] [--restart] [--verify]`
struct FSGetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Download a file from the device's file system.",
        discussion: """
            The device chooses the chunk size; several requests are in flight (--window). The file \
            is written to LOCAL.part (created exclusively, never through a link) and renamed to \
            LOCAL when complete and synced; when LOCAL.part exists and the device's hash of its \
            length matches, the download continues where it stopped (--restart starts afresh); a \
            continued download is then checked against the device's hash of the whole file (once \
            more from offset 0 on a mismatch, then it fails). LOCAL defaults to the remote file's \
            name in the current directory; a directory means that name inside it; - writes to \
            standard output, and a character device or a FIFO (/dev/null, a named pipe) is written \
            to as a stream, never replaced. --verify checks every download so. On many devices \
            (--targets, a selector), LOCAL must hold {name}, which each device's name replaces.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: FSRemotePath.help)
    var remote: String

    @Argument(help: ArgumentHelp("Where to write it: a file, a directory, a device or FIFO, - for standard output (default: its name in the current directory).", valueName: "local"), completion: .file())
    var local: String?

    @OptionGroup var transfer: FSTransferOptions

    func validate() throws {
        try FSRemotePath.validate(remote)
        if destination.isEmpty { throw ValidationError("give a local file name: \(remote) has no file name to use") }
        if destination == "-" && transfer.verify { throw ValidationError("--verify needs a local file, not standard output") }
    }

    /// The local destination as given.
    private var destination: String {
        local ?? remoteName
    }

    /// The file's name on the device (its last path component).
    private var remoteName: String {
        RemoteFilePath.fileName(of: remote)
    }

    /// Where each of many devices writes: LOCAL with `{name}` replaced by the device's name as
    /// one file name (``DeviceFileName``), worked out before anything is sent. Refused: a LOCAL
    /// without `{name}`, a name that makes LOCAL an existing folder, and two devices that would
    /// write one file.
    private func destinations(for targets: [DeviceTarget]) throws(CLIError) -> [DeviceTarget: FSLocalDestination] {
        guard destination.contains("{name}") else {
            throw CLIError(
                .usage, "fs get on many devices would write every device's file to \(destination)",
                hint: "put {name} in LOCAL, e.g. 'logs/{name}-\(remoteName)': each device's name takes its place")
        }
        var destinations: [DeviceTarget: FSLocalDestination] = [:]
        var writers: [String: DeviceTarget] = [:]
        for target in targets {
            let path = DeviceFileName.expand(destination, name: target.name)
            if LocalPath.isFolder(path) {
                throw CLIError(
                    .usage, "fs get: \(path), where \"\(target.name)\" would write, is a folder",
                    hint: "give LOCAL a file name around {name}, e.g. 'logs/{name}-\(remoteName)'; nothing was sent to any device")
            }
            let opened = try FSLocalDestination.open(path, remoteName: remoteName, verify: transfer.verify)
            let place = opened.stream == nil ? LocalPath.canonical(opened.path) : opened.path
            if let other = writers[place], opened.stream == nil {
                throw CLIError(
                    .usage, "fs get: \"\(other.name)\" and \"\(target.name)\" would both write \(opened.path)",
                    hint: "give LOCAL a {name} in the file name, so that each device writes its own file; nothing was sent to any device")
            }
            writers[place] = target
            destinations[target] = opened
        }
        return destinations
    }

    func run() async throws {
        let (remote, transfer) = (remote, transfer)
        let oneDestination: FSLocalDestination
        do {
            oneDestination = try FSLocalDestination.open(destination, remoteName: remoteName, verify: transfer.verify)
        } catch {
            global.output.report(error)
            throw ExitCode(error.status.rawValue)
        }
        let invocation = try await global.invocation()
        var perDevice: [DeviceTarget: FSLocalDestination] = [:]
        if let run = invocation.fleetRun {
            do {
                perDevice = try destinations(for: run.targets)
            } catch {
                global.output.report(error)
                throw ExitCode(error.status.rawValue)
            }
        }
        try await invocation.withClient { [perDevice] client, output in
            let target = output.device.flatMap { perDevice[$0.target] } ?? oneDestination
            let destination = target.path
            let toStandardOutput = target.isStandardOutput
            let renderer = TransferProgressRenderer(output: output, events: output.json && !toStandardOutput, label: remote, firstWait: .download)
            renderer.start()
            let outcome: FileSystemDownload.Result
            do {
                outcome = try await Interruption.cancellingOnSignals {
                    let download = FileSystemDownload(
                        client: client, name: remote, window: transfer.window ?? invocation.window, restart: transfer.restart, verification: transfer.verification)
                    if let stream = target.stream {
                        return try await download.download(into: stream) { renderer.show($0) }
                    }
                    return try await download.download(to: destination, warning: { output.note("warning: \($0)") }) { renderer.show($0) }
                }
                renderer.finish()
            } catch {
                renderer.finish()
                throw FSTransferFailure.cliError(error, renderer.last, verb: "get", command: resumeCommand(invocation))
            }
            guard !toStandardOutput else { return }
            output.emit(json(outcome, local: destination), human: text(outcome, local: destination))
        }
    }

    private func json(_ outcome: FileSystemDownload.Result, local destination: String) -> JSONValue {
        let result = outcome.download
        return .object([
            ("event", .string("done")), ("remote", .string(remote)), ("local", .string(destination)), ("size", .uint(result.progress.total)),
            ("chunkSize", .uint(UInt64(result.chunkSize))),
        ] + FSTransferFailure.figures(result.progress, window: result.window, seconds: result.seconds) + [
            ("verified", outcome.verification.map(\.json) ?? .null), ("attempts", .uint(UInt64(outcome.attempts))),
        ])
    }

    private func text(_ outcome: FileSystemDownload.Result, local destination: String) -> String {
        let result = outcome.download
        var lines = ["got \(remote) to \(destination): \(result.progress.total) bytes in \(TransferProgressRenderer.seconds(result.seconds)) (\(TransferProgressRenderer.rate(result.progress.bytesPerSecond)))"]
        if let resumed = result.progress.resumedFrom { lines.append("resumed from offset \(resumed)") }
        lines += FSTransferFailure.verificationLines(checked: outcome.checked, outcome.verification, attempts: outcome.attempts)
        return lines.joined(separator: "\n")
    }

    private func resumeCommand(_ invocation: Invocation) -> String {
        invocation.commandLine(["smpctl", "fs", "get", remote, destination] + transfer.resumeArguments)
    }
}
