import ArgumentParser
import FoundationEssentials
import SMP
import SMPFirmware

/// `smpctl image upload FILE [--image N] [--newer-only] [--window N] [--align N] [--restart]`
struct ImageUploadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upload",
        abstract: "Upload an MCUboot image to the slot opposite the running one.",
        discussion: """
            The first chunk carries the file's length and SHA-256; the device keeps the upload \
            state by that hash, so after an interruption (Ctrl-C, a lost link) the same command \
            resumes from the device's offset. MCUboot's serial recovery keeps no such state: an \
            interrupted upload leaves its primary slot incomplete (do not reset the device then), \
            and the same command writes the image again from offset 0. --restart starts afresh:
            a first chunk without the hash clears the device's upload state, then the upload \
            begins at offset 0. A device built with CONFIG_IMG_ENABLE_IMAGE_CHECK hashes the slot \
            after the last chunk; when that does not match, the upload starts again once from \
            offset 0, then fails.
            The file is checked first as `upgrade` checks it: a truncated file, a damaged header or \
            TLV area, a wrong magic, a SHA-256 TLV that differs from the hash of the content, or a \
            RAM-load image signed for another load address than its code is refused (exit 65) and \
            nothing is sent; --force sends it anyway, with a warning.
            An Intel HEX file (zephyr.signed.hex) is sent as the same bytes as the .bin: it must \
            hold one contiguous range starting with the image (docs/upgrade.md, "Intel HEX").
            After the upload, mark the image with `image test` or `image confirm` and reset.
            Progress goes to standard error (a bar on a terminal, lines otherwise); with --json, \
            progress events and the result are JSON lines on standard output.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The image file (for example zephyr.signed.bin or zephyr.signed.hex).", valueName: "file"), completion: .file(extensions: FirmwareFileExtensions.image))
    var file: String

    @Option(help: ArgumentHelp("The image number (0: application, 1: network core...).", valueName: "n"))
    var image: UInt64?

    @Flag(help: "Have the device refuse an image that is not newer than the running one.")
    var newerOnly = false

    /// The former name of `--newer-only`, kept working.
    @Flag(name: .customLong("upgrade"), help: ArgumentHelp("The former name of --newer-only.", visibility: .hidden))
    var upgrade = false

    @Flag(help: "Send the file even when it is not a sound MCUboot image (truncated, hash mismatch, wrong magic): for firmware engineers who mean it.")
    var force = false

    @OptionGroup var tuning: UploadTuningOptions

    func run() async throws {
        let output = global.output
        let loaded: ImageUploadFile
        do {
            loaded = try ImageUploadFile(path: file, force: force)
        } catch {
            output.report(error)
            throw ExitCode(error.status.rawValue)
        }
        if let problem = loaded.forcedProblem {
            Output.status("warning: --force: sending a file that is not a sound MCUboot image: \(problem)")
        }
        let target = ImageUploadTarget(image: image, upgrade: newerOnly || upgrade)
        let invocation = try await global.invocation()
        let options = tuning.chunkedUploadOptions(invocation)
        try await invocation.withClient { client, output in
            let upload = ImageUpload(client: client, target: target, options: options)
            // Known before the upload: an interrupted one resumes only in the application.
            let recovery = (try? await client.recogniseServer())?.isSerialRecovery == true
            let renderer = TransferProgressRenderer(output: output, label: String(loaded.path.split(separator: "/").last ?? ""))
            renderer.start()
            do {
                let result = try await Interruption.cancellingOnSignals {
                    try await upload.upload(
                        from: loaded.bytes, sha: loaded.sha256, imageHash: loaded.forcedProblem == nil ? loaded.imageHash : nil
                    ) { renderer.show($0) }
                }
                renderer.finish()
                output.emit(
                    loaded.json(result.upload, serialRecovery: recovery),
                    human: ([loaded.text(result.upload, serialRecovery: recovery, command: invocation.commandLine)] + Self.checkLines(result)).joined(separator: "\n"))
            } catch {
                renderer.finish()
                throw ImageUploadFailure.cliError(error, renderer.last, command: resumeCommand(invocation), serialRecovery: recovery)
            }
        }
    }

    /// What the text adds about the device's check of a repeated or resumed upload.
    static func checkLines(_ result: ImageUpload.Result) -> [String] {
        var lines: [String] = []
        if result.attempts > 1 { lines.append("the first upload did not match the device's hash: uploaded again from offset 0") }
        if result.isUnverifiedResume {
            lines.append("not verified: the device does not hash uploads (CONFIG_IMG_ENABLE_IMAGE_CHECK); `image list` shows the slot's hash TLV only")
        }
        return lines
    }

    /// The command that resumes this upload.
    private func resumeCommand(_ invocation: Invocation) -> String {
        var words = ["smpctl", "image", "upload", file]
        if let image { words += ["--image", "\(image)"] }
        if newerOnly || upgrade { words.append("--newer-only") }
        if force { words.append("--force") }
        words += tuning.resumeArguments
        return invocation.commandLine(words)
    }
}
