import ArgumentParser
import FoundationEssentials
import JSON
import SMP
import SMPFirmware

/// `smpctl suit upload FILE [--defer-install]`: the envelope alone, then the resources the device
/// asks for when FILE is a dfu_suit.zip.
struct SUITUploadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upload",
        abstract: "Upload a SUIT envelope (SUIT command 2); with a dfu_suit.zip, also serve the resources the device asks for.",
        discussion: """
            FILE is a SUIT envelope (.suit) or a dfu_suit.zip. Only the envelope is uploaded (upload the \
            caches first with `suit cache-upload`, and pass --defer-install then; `suit upload --process` \
            starts the deferred processing). With a dfu_suit.zip, the device is then polled and each \
            resource it asks for (file://NAME) is uploaded, until it asks for nothing more or restarts. \
            For the whole installation (caches, restart, check) use `smpctl upgrade FILE`.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The SUIT envelope or dfu_suit.zip (omit with --process).", valueName: "file"), completion: .file(extensions: ["suit", "zip"]))
    var file: String?

    @Flag(help: "Hold processing back until `suit upload --process` (for when caches were uploaded first).")
    var deferInstall = false

    @Flag(help: "Start processing an envelope uploaded with --defer-install (off 0, len 0).")
    var process = false

    @OptionGroup var poll: SUITPollOptions

    @OptionGroup var tuning: UploadTuningOptions

    func validate() throws {
        if process == (file != nil) { throw ValidationError("give either FILE or --process") }
    }

    func run() async throws {
        guard let file else {
            try await global.withClient { client, output in
                try await client.send(SUITProcessEnvelope())
                output.emit(.object([("processing", .bool(true))]), human: "the device processes the envelope")
            }
            return
        }
        let package: SUITUpgradePackage
        do {
            package = try SUITUpgradePackage(FirmwarePackage(contentsOf: file))
        } catch {
            let failure = UpgradeFailure.cliError(error, file: file)
            global.output.report(failure)
            throw ExitCode(failure.status.rawValue)
        }
        let invocation = try await global.invocation()
        let rerun = invocation.commandLine(["smpctl", "suit", "upload", file] + (deferInstall ? ["--defer-install"] : []) + poll.resumeArguments + tuning.resumeArguments)
        let options = UpgradeOptions(upload: tuning.chunkedUploadOptions(invocation), suitPollWindow: poll.window)
        try await invocation.withClient { client, output in
            let envelope = package.envelopeFile
            let result = try await SUITUploadRun.upload(
                envelope, kind: .envelope(deferInstall: deferInstall), client: client, options: options.upload, output: output, rerun: rerun)
            let (json, text) = SUITUploadRun.report(result, file: envelope)
            guard !deferInstall, !package.resources.isEmpty else {
                output.emit(.object([("event", .string("done"))] + json + [("resources", .array([]))]), human: text)
                return
            }
            let server = SUITResourceServer(client: client, package: package, options: options)
            let served: SUITResourceServer.Outcome
            do {
                let progress = SUITResourceProgress(output: output)
                served = try await Interruption.cancellingOnSignals {
                    try await server.serve(
                        requested: { request, resource in
                            let note = JSONValue.object([("event", .string("resource")), ("resource", .string(request.resourceID)), ("file", .string(resource.fileName))])
                            progress.finish()
                            output.emit(note, human: "the device asks for \(request); sending \(resource.summary)")
                        },
                        progress: { progress.show($1, of: $0) })
                }
                progress.finish()
            } catch {
                throw SUITUploadRun.failure(error, rerun: rerun)
            }
            let restarted = served.deviceWentSilent ? "; the device restarts" : ""
            output.emit(
                .object([("event", .string("done"))] + json + [("resources", .array(served.served.map(JSONValue.string))), ("deviceRestarts", .bool(served.deviceWentSilent))]),
                human: text + "\nresources served: " + (served.served.isEmpty ? "none" : served.served.joined(separator: ", ")) + restarted)
        }
    }
}
