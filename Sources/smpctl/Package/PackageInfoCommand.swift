import ArgumentParser
import SMPFirmware

/// `smpctl package info FILE`: what a firmware file holds, decided by its content.
struct PackageInfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show what a firmware file holds: kind, images, DirectXIP pairs, SUIT digest.",
        discussion: """
            The kind comes from the content, not the name: an MCUboot image (magic 3d b8 f3 96),
            a ZIP with manifest.json (NCS dfu_application.zip or dfu_suit.zip), or a SUIT
            envelope (CBOR tag 107). Archives are read in memory; nothing is extracted.
            Exit codes: 65 the file is unreadable, unrecognised or malformed.
            """)

    @Argument(help: ArgumentHelp("The firmware file: .bin, .zip or .suit.", valueName: "file"), completion: .firmwareFile)
    var file: String

    @OptionGroup var format: JSONOutputOption

    func run() async throws {
        let output = format.output
        let package: FirmwarePackage
        do {
            package = try FirmwarePackage(contentsOf: file)
        } catch {
            let failure = CLIError(.dataError, error.description)
            output.report(failure)
            throw ExitCode(failure.status.rawValue)
        }
        output.emit(package.jsonDocument(file: file), human: package.humanReport(file: file))
    }
}
