import ArgumentParser
import FoundationEssentials
import SMP

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
            to as a stream, never replaced. --verify checks every download so.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: FSRemotePath.help)
    var remote: String

    @Argument(help: ArgumentHelp("Where to write it: a file, a directory, a device or FIFO, - for standard output (default: its name in the current directory).", valueName: "local"))
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
        String(remote.split(separator: "/").last ?? "")
    }

    func run() async throws {
        let (remote, transfer) = (remote, transfer)
        let target: FSLocalDestination
        do {
            target = try FSLocalDestination.open(destination, remoteName: remoteName, verify: transfer.verify)
        } catch {
            global.output.report(error)
            throw ExitCode(error.status.rawValue)
        }
        let destination = target.path
        let toStandardOutput = target.isStandardOutput
        try await global.withClient { client, output in
            let renderer = TransferProgressRenderer(json: output.json && !toStandardOutput, announcement: toStandardOutput ? nil : "getting \(remote)")
            renderer.start()
            let outcome: Outcome
            do {
                outcome = try await Interruption.cancellingOnSignals {
                    let downloader = FileDownloader(client: client, name: remote, options: FileDownloadOptions(window: transfer.window))
                    if let stream = target.stream {
                        let result = try await downloader.download(into: stream) { renderer.show($0) }
                        return Outcome(result: result, verification: nil, checked: false, attempts: 1)
                    }
                    return try await Self.download(downloader, to: destination, restart: transfer.restart, verification: transfer.verification) {
                        renderer.show($0)
                    }
                }
                renderer.finish()
            } catch {
                renderer.finish()
                throw FSTransferFailure.cliError(error, renderer.last, verb: "get", command: resumeCommand)
            }
            guard !toStandardOutput else { return }
            output.emit(json(outcome, local: destination), human: text(outcome, local: destination))
        }
    }

    /// What a download to a local file did: the last download, the device's hash of the file
    /// next to the local one (when checked and the device can hash), and how many downloads it took.
    struct Outcome {
        var result: FileDownloadResult
        var verification: FSHashComparison?
        var checked: Bool
        var attempts: Int
    }

    /// Downloads into `destination.part` (a ``PartialDownloadFile``), continuing it when the
    /// device's hash of its bytes matches, and renames it to `destination` when complete; a
    /// failure removes it unless it holds bytes a rerun can continue (an interruption, a lost
    /// link). A continued download (and with `verification` `.always`
    /// any) is checked against the device's hash of the whole file before the rename: on a
    /// mismatch it is downloaded once more from offset 0, then the `.part` file is removed and
    /// the download fails.
    static func download(
        _ downloader: FileDownloader, to destination: String, restart: Bool, verification: TransferVerification,
        progress: @escaping @Sendable (UploadProgress) -> Void
    ) async throws -> Outcome {
        let part = try PartialDownloadFile(destination: destination)
        if let ignored = part.ignoredPart { Output.status("warning: \(ignored)") }
        var fromScratch = restart
        var attempt = 0
        while true {
            attempt += 1
            var held = fromScratch ? 0 : part.initialSize
            if held > 0 {
                do {
                    let comparison = try await FSHashComparison.compare(downloader.client, name: downloader.name, local: part.contents(), length: held)
                    if !comparison.matches { held = 0 }
                } catch SMPError.device {
                    held = 0
                }
            }
            if held == 0 { try part.truncate(to: 0) }
            let result: FileDownloadResult
            do {
                result = try await downloader.download(into: part, resumingAt: held, progress: progress)
            } catch {
                part.abandon(keepingProgress: FSTransferFailure.canContinue(after: error))
                throw error
            }
            let wanted = verification == .always || held > 0
            let comparison = wanted ? try await FileSystemUpload.check(downloader.client, name: downloader.name, local: part.contents()) : nil
            if let comparison, !comparison.matches {
                guard attempt < 2 else {
                    part.abandon(keepingProgress: false)
                    throw TransferVerificationError.mismatch(
                        what: downloader.name, type: comparison.type, device: comparison.device.output, local: comparison.local,
                        length: comparison.expectedLength, attempts: attempt)
                }
                fromScratch = true
                continue
            }
            do {
                try part.commit()
            } catch {
                part.abandon(keepingProgress: false)
                throw error
            }
            return Outcome(result: result, verification: comparison, checked: wanted, attempts: attempt)
        }
    }

    private func json(_ outcome: Outcome, local destination: String) -> JSONValue {
        let result = outcome.result
        return .object([
            ("event", .string("done")), ("remote", .string(remote)), ("local", .string(destination)), ("size", .uint(result.progress.total)),
            ("chunkSize", .uint(UInt64(result.chunkSize))),
        ] + FSTransferFailure.figures(result.progress, window: result.window, seconds: result.seconds) + [
            ("verified", outcome.verification.map(\.json) ?? .null), ("attempts", .uint(UInt64(outcome.attempts))),
        ])
    }

    private func text(_ outcome: Outcome, local destination: String) -> String {
        let result = outcome.result
        var lines = ["got \(remote) to \(destination): \(result.progress.total) bytes in \(TransferProgressRenderer.seconds(result.seconds)) (\(TransferProgressRenderer.rate(result.progress.bytesPerSecond)))"]
        if let resumed = result.progress.resumedFrom { lines.append("resumed from offset \(resumed)") }
        lines += FSTransferFailure.verificationLines(checked: outcome.checked, outcome.verification, attempts: outcome.attempts)
        return lines.joined(separator: "\n")
    }

    private var resumeCommand: String {
        global.commandLine(["smpctl", "fs", "get", remote, destination] + transfer.resumeArguments)
    }
}
