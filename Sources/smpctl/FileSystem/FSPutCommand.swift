import ArgumentParser
import JSON
import SMP

/// `smpctl fs put LOCAL REMOTE [--window N] [--restart] [--verify]`
struct FSPutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "put",
        abstract: "Upload a local file to the device's file system.",
        discussion: """
            The file is read and sent in chunks, several in flight (--window). When the device \
            already holds the beginning of the file (an interrupted put) and its hash of that part \
            matches, the upload continues there; --restart starts at offset 0. The device's open \
            file is closed first, so that nothing it kept from an interrupted upload counts. After \
            a resumed or irregular upload (and always with --verify) the device's hash of the \
            whole file is compared with the local one; on a mismatch the file is sent once more \
            from offset 0, then the command fails. A REMOTE that ends in / or names a directory on \
            the device means LOCAL's name inside it. LOCAL must be a regular file (not a FIFO or a \
            device). An empty LOCAL put over a file the device does not empty is an error, never a \
            silent success. Progress goes to \
            standard error; with --json, progress events and the result are JSON lines.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The local file.", valueName: "local"), completion: .file())
    var local: String

    @Argument(help: FSRemotePath.help)
    var remote: String

    @OptionGroup var transfer: FSTransferOptions

    func validate() throws { try FSRemotePath.validate(remote) }

    func run() async throws {
        let output = global.output
        let source: FileUploadSource
        do {
            source = try FSLocalFile.source(local)
        } catch {
            output.report(error)
            throw ExitCode(error.status.rawValue)
        }
        let (transfer, local) = (transfer, local)
        let invocation = try await global.invocation()
        try await invocation.withClient { client, output in
            let (remote, state) = try await RemoteFilePath.destination(self.remote, localPath: local, client: client)
            let renderer = TransferProgressRenderer(output: output, label: remote)
            renderer.start()
            let result: FileSystemUpload.Result
            do {
                let upload = FileSystemUpload(
                    client: client, name: remote, state: state, window: transfer.window ?? invocation.window, restart: transfer.restart, verification: transfer.verification)
                result = try await Interruption.cancellingOnSignals { try await upload.upload(from: source) { renderer.show($0) } }
                renderer.finish()
            } catch {
                renderer.finish()
                if let diagnosis = await RemotePathDiagnosis.diagnose(error, path: remote, client: client) { throw diagnosis.cliError(remote: remote) }
                throw FSTransferFailure.cliError(error, renderer.last, verb: "put", command: resumeCommand(invocation))
            }
            if result.emptyFileConfirmed == false {
                output.note("warning: the device did not report the size of \(remote), so whether it is empty now is not known")
            }
            output.emit(json(result, source: source, remote: remote), human: text(result, source: source, remote: remote))
        }
    }

    private func json(_ outcome: FileSystemUpload.Result, source: FileUploadSource, remote: String) -> JSONValue {
        let result = outcome.upload
        return .object([
            ("event", .string("done")), ("local", .string(local)), ("remote", .string(remote)), ("size", .uint(UInt64(source.count))),
        ] + FSTransferFailure.figures(result.progress, window: result.window, seconds: result.seconds) + [
            ("verified", outcome.verification.map(\.json) ?? .null), ("attempts", .uint(UInt64(outcome.attempts))),
            ("madeRoom", .bool(outcome.madeRoom)),
        ])
    }

    private func text(_ outcome: FileSystemUpload.Result, source: FileUploadSource, remote: String) -> String {
        let (result, verification) = (outcome.upload, outcome.verification)
        var lines: [String]
        if let resumed = result.progress.resumedFrom, resumed == UInt64(source.count) {
            lines = ["\(remote) already holds \(local) (\(source.count) bytes, same hash): nothing sent"]
        } else {
            lines = ["put \(local) to \(remote): \(source.count) bytes in \(TransferProgressRenderer.seconds(result.seconds)) (\(TransferProgressRenderer.rate(result.progress.bytesPerSecond)))"]
            if let resumed = result.progress.resumedFrom { lines.append("resumed from offset \(resumed)") }
        }
        if outcome.madeRoom {
            lines.append("the device's file system was full: \(remote) was first cut to one byte to free the old contents' blocks")
        }
        lines += FSTransferFailure.verificationLines(checked: outcome.checked, verification, attempts: outcome.attempts)
        return lines.joined(separator: "\n")
    }

    private func resumeCommand(_ invocation: Invocation) -> String {
        invocation.commandLine(["smpctl", "fs", "put", local, remote] + transfer.resumeArguments)
    }
}
