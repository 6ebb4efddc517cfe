import ArgumentParser
import JSON
import SMP
import SMPFirmware

/// One SUIT upload from the CLI (envelope, resource or cache) with its progress, and how a
/// failure reads: an interrupted SUIT upload is started over, not resumed.
enum SUITUploadRun {
    /// Uploads `file` as `kind`, with progress on standard error (or JSON events) through `output`.
    static func upload(
        _ file: SUITUpgradeFile, kind: SUITUploadKind, client: SMPClient, options: ChunkedUploadOptions, output: Output, rerun: String
    ) async throws -> UploadResult {
        let renderer = TransferProgressRenderer(
            output: output, label: "\(kind): \(file.fileName)", context: [("file", .string(file.fileName))])
        renderer.start()
        do {
            let uploader = ChunkedUploader(client: client, target: SUITUploadTarget(kind: kind), options: options)
            let result = try await Interruption.cancellingOnSignals { try await uploader.upload(file.bytes) { renderer.show($0) } }
            renderer.finish()
            return result
        } catch {
            renderer.finish()
            throw failure(error, rerun: rerun)
        }
    }

    /// The CLI error for a failed SUIT upload or resource serving.
    static func failure(_ error: any Error, rerun: String) -> CLIError {
        switch error {
        case is CancellationError:
            return CLIError(.interrupted, "SUIT upload interrupted", hint: "SUIT uploads start over from the beginning: \(rerun)")
        case let error as SUITMissingResourceError:
            return CLIError(.dataError, error.description, hint: "give the dfu_suit.zip that holds the envelope's resources")
        default:
            return ImageUploadFailure.cliError(error, nil, command: rerun)
        }
    }

    /// An upload's result as JSON members and as a line.
    static func report(_ result: UploadResult, file: SUITUpgradeFile) -> (json: [(String, JSONValue)], text: String) {
        let json: [(String, JSONValue)] = [
            ("file", .string(file.fileName)), ("size", .uint(result.progress.total)), ("seconds", .seconds(result.seconds)),
            ("bytesPerSecond", .rate(result.progress.bytesPerSecond)),
        ]
        let text = "uploaded \(file.summary) in \(TransferProgressRenderer.seconds(result.seconds)) (\(TransferProgressRenderer.rate(result.progress.bytesPerSecond)))"
        return (json, text)
    }
}
