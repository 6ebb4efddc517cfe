import ArgumentParser
import Foundation
import SMP

/// `smpctl fs get REMOTE [LOCAL|-] [--window N] [--restart] [--verify]`
struct FSGetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Download a file from the device's file system.",
        discussion: """
            The device chooses the chunk size; several requests are in flight (--window). The file \
            is written to LOCAL.part and renamed to LOCAL when complete; when LOCAL.part exists and \
            the device's hash of its length matches, the download continues where it stopped \
            (--restart starts afresh); a continued download is then checked against the device's \
            hash of the whole file (once more from offset 0 on a mismatch, then it fails). LOCAL defaults to the remote file's name in the current \
            directory; - writes to standard output. --verify checks every download so.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: FSRemotePath.help)
    var remote: String

    @Argument(help: ArgumentHelp("Where to write it (default: its name in the current directory; - for standard output).", valueName: "local"))
    var local: String?

    @OptionGroup var transfer: FSTransferOptions

    func validate() throws {
        try FSRemotePath.validate(remote)
        if destination.isEmpty { throw ValidationError("give a local file name: \(remote) has no file name to use") }
        if destination == "-" && transfer.verify { throw ValidationError("--verify needs a local file, not standard output") }
    }

    /// The local destination.
    private var destination: String {
        local ?? String(remote.split(separator: "/").last ?? "")
    }

    func run() async throws {
        let (remote, transfer, destination) = (remote, transfer, destination)
        let toStandardOutput = destination == "-"
        try await global.withClient { client, output in
            let renderer = TransferProgressRenderer(json: output.json && !toStandardOutput, announcement: toStandardOutput ? nil : "getting \(remote)")
            renderer.start()
            let outcome: Outcome
            do {
                outcome = try await Interruption.cancellingOnSignals {
                    let downloader = FileDownloader(client: client, name: remote, options: FileDownloadOptions(window: transfer.window))
                    if toStandardOutput {
                        let result = try await downloader.download(into: StandardOutputSink()) { renderer.show($0) }
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
            output.emit(json(outcome), human: text(outcome))
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

    /// Downloads into `destination.part`, continuing it when the device's hash of its bytes
    /// matches, and renames it to `destination` when complete; a failure before the first byte
    /// removes the empty `.part` file. A continued download (and with `verification` `.always`
    /// any) is checked against the device's hash of the whole file before the rename: on a
    /// mismatch it is downloaded once more from offset 0, then the `.part` file is removed and
    /// the download fails.
    static func download(
        _ downloader: FileDownloader, to destination: String, restart: Bool, verification: TransferVerification,
        progress: @escaping @Sendable (UploadProgress) -> Void
    ) async throws -> Outcome {
        let partPath = destination + ".part"
        let part = try FileDownloadSink(path: partPath)
        var fromScratch = restart
        var attempt = 0
        while true {
            attempt += 1
            var held = fromScratch ? 0 : part.initialSize
            if held > 0 {
                do {
                    let comparison = try await FSHashComparison.compare(downloader.client, name: downloader.name, local: FileUploadSource(path: partPath), length: held)
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
                // Nothing to continue from (a missing file, an unreachable device): leave no empty .part behind.
                if (try? FileUploadSource(path: partPath))?.count == 0 { unlink(partPath) }
                throw error
            }
            let wanted = verification == .always || held > 0
            let comparison = wanted ? try await FileSystemUpload.check(downloader.client, name: downloader.name, local: FileUploadSource(path: partPath)) : nil
            if let comparison, !comparison.matches {
                guard attempt < 2 else {
                    unlink(partPath)
                    throw TransferVerificationError.mismatch(
                        what: downloader.name, type: comparison.type, device: comparison.device.output, local: comparison.local,
                        length: comparison.expectedLength, attempts: attempt)
                }
                fromScratch = true
                continue
            }
            guard rename(partPath, destination) == 0 else { throw FileAccessError(path: destination, operation: "rename \(partPath) to", code: errno) }
            return Outcome(result: result, verification: comparison, checked: wanted, attempts: attempt)
        }
    }

    private func json(_ outcome: Outcome) -> JSONValue {
        let result = outcome.result
        return .object([
            ("event", .string("done")), ("remote", .string(remote)), ("local", .string(destination)), ("size", .uint(result.progress.total)),
            ("chunkSize", .uint(UInt64(result.chunkSize))),
        ] + FSTransferFailure.figures(result.progress, window: result.window, seconds: result.seconds) + [
            ("verified", outcome.verification.map(\.json) ?? .null), ("attempts", .uint(UInt64(outcome.attempts))),
        ])
    }

    private func text(_ outcome: Outcome) -> String {
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
