import ArgumentParser
import SMP

/// `smpctl fs put LOCAL REMOTE [--window N] [--restart] [--verify]`
struct FSPutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "put",
        abstract: "Upload a local file to the device's file system.",
        discussion: """
            The file is read and sent in chunks, several in flight (--window). When the device \
            already holds the beginning of the file (an interrupted put) and its hash of that part \
            matches, the upload continues there; --restart starts at offset 0. --verify compares \
            the device's hash of the whole file with the local one afterwards. A REMOTE that ends \
            in / or names a directory on the device means LOCAL's name inside it. LOCAL must be \
            a regular file (not a FIFO or a device). An empty LOCAL put over a file the device \
            does not empty is an error, never a silent success. Progress goes to \
            standard error; with --json, progress events and the result are JSON lines.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The local file.", valueName: "local"))
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
        try await global.withClient { client, output in
            let remote = try await FSRemoteDestination.resolve(self.remote, localName: FSRemoteDestination.localName(local), client: client)
            let renderer = TransferProgressRenderer(json: output.json, announcement: "putting \(local) (\(source.count) bytes) to \(remote)")
            renderer.start()
            let result: UploadResult
            do {
                result = try await Interruption.cancellingOnSignals {
                    let resumeAt = transfer.restart ? 0 : try await Self.heldPrefix(client, remote: remote, source: source)
                    let uploader = ChunkedUploader(client: client, target: FileUploadTarget(name: remote), options: ChunkedUploadOptions(window: transfer.window))
                    let result = try await uploader.upload(from: source, sha: nil, resumingAt: resumeAt) { renderer.show($0) }
                    // A resumed or rewound upload never told the device the length: it keeps the file open.
                    try await FileSystemClose.closeIgnoringUnsupported(client)
                    return result
                }
                renderer.finish()
            } catch {
                renderer.finish()
                if let explained = await FSRemoteDiagnosis.explain(error, remote: remote, client: client) { throw explained }
                throw FSTransferFailure.cliError(error, renderer.last, verb: "put", command: resumeCommand)
            }
            if source.count == 0 { try await FSEmptyFileCheck.confirmEmpty(client, remote: remote) }
            let verification = transfer.verify ? try await FSVerify.check(client, remote: remote, local: source) : nil
            output.emit(
                json(result, source: source, remote: remote, verification: verification),
                human: text(result, source: source, remote: remote, verification: verification))
        }
    }

    /// How many leading bytes of the file the device already holds: its file's size when its hash
    /// of that part matches the local file's (0 when it holds nothing usable or cannot hash).
    static func heldPrefix(_ client: SMPClient, remote: String, source: some UploadSource) async throws -> UInt64 {
        let size: UInt64
        do {
            size = try await client.send(FileStatus(name: remote))
        } catch SMPError.device {
            return 0
        }
        guard size > 0, size <= UInt64(source.count) else { return 0 }
        do {
            return try await FSHashComparison.compare(client, name: remote, local: source, length: size).matches ? size : 0
        } catch SMPError.device {
            return 0
        }
    }

    private func json(_ result: UploadResult, source: FileUploadSource, remote: String, verification: FSHashComparison?) -> JSONValue {
        .object([
            ("event", .string("done")), ("local", .string(local)), ("remote", .string(remote)), ("size", .uint(UInt64(source.count))),
        ] + FSTransferFailure.figures(result.progress, window: result.window, seconds: result.seconds) + [
            ("verified", verification.map(\.json) ?? .null),
        ])
    }

    private func text(_ result: UploadResult, source: FileUploadSource, remote: String, verification: FSHashComparison?) -> String {
        var lines: [String]
        if let resumed = result.progress.resumedFrom, resumed == UInt64(source.count) {
            lines = ["\(remote) already holds \(local) (\(source.count) bytes, same hash): nothing sent"]
        } else {
            lines = ["put \(local) to \(remote): \(source.count) bytes in \(TransferProgressRenderer.seconds(result.seconds)) (\(TransferProgressRenderer.rate(result.progress.bytesPerSecond)))"]
            if let resumed = result.progress.resumedFrom { lines.append("resumed from offset \(resumed)") }
        }
        if let verification { lines.append("verified: the device's \(verification.type) matches (\(verification.device.hex))") }
        return lines.joined(separator: "\n")
    }

    private var resumeCommand: String {
        global.commandLine(["smpctl", "fs", "put", local, remote] + transfer.resumeArguments)
    }
}
