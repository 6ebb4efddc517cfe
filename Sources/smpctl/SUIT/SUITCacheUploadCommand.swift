import ArgumentParser
import FoundationEssentials
import SMP
import SMPFirmware

/// `smpctl suit cache-upload --partition N FILE`: a raw image into a DFU cache partition.
struct SUITCacheUploadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache-upload", abstract: "Upload a raw cache image to a DFU cache partition (SUIT command 5).")

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("The cache partition (target_id), as the dfu_suit.zip manifest gives it.", valueName: "n"))
    var partition: UInt64

    @Argument(help: ArgumentHelp("The cache image (e.g. dfu_cache_partition_1.bin).", valueName: "file"), completion: .file(extensions: ["bin"]))
    var file: String

    @OptionGroup var tuning: UploadTuningOptions

    func run() async throws {
        let file = file
        let cache = try global.preflight { () throws -> SUITUpgradeFile in
            let source = try FSLocalFile.source(file)
            guard source.count > 0 else { throw CLIError(.dataError, "\(file) is empty: there is no cache image to upload") }
            return SUITUpgradeFile(fileName: URL(fileURLWithPath: file).lastPathComponent, bytes: try source.read(offset: 0, length: source.count))
        }
        let invocation = try await global.invocation()
        let rerun = invocation.commandLine(["smpctl", "suit", "cache-upload", "--partition", "\(partition)", file] + tuning.resumeArguments)
        try await invocation.withClient { client, output in
            let result = try await SUITUploadRun.upload(
                cache, kind: .cache(partition: partition), client: client, options: tuning.chunkedUploadOptions(invocation), output: output, rerun: rerun)
            let (json, text) = SUITUploadRun.report(result, file: cache)
            output.emit(.object([("event", .string("done")), ("partition", .uint(partition))] + json), human: text + " to partition \(partition)")
        }
    }
}
