import ArgumentParser
import FoundationEssentials
import NordicDFU
import SMPFirmware

/// `smpctl package info FILE`: what a firmware file holds, decided by its content.
struct PackageInfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show what a firmware file holds: kind, images, DirectXIP pairs, SUIT digest, Nordic DFU init packets.",
        discussion: """
            The kind comes from the content, not the name: an MCUboot image (magic 3d b8 f3 96), \
            a ZIP with manifest.json (NCS dfu_application.zip or dfu_suit.zip; an nRF5 SDK \
            Nordic DFU package when manifest.json has a "manifest" object), or a SUIT envelope \
            (CBOR tag 107); with --bare, an application without an init packet for a legacy \
            Nordic DFU bootloader. Archives are read in memory; nothing is extracted. A Nordic DFU \
            package's images are checked against their init packets (type, sizes, SHA-256 or \
            CRC-16); with --key, each init packet's signature is checked with that public key.
            Exit codes: 65 the file is unreadable, unrecognised or malformed, or (with --key) an \
            image's init packet is unsigned or its signature does not verify (the report is \
            printed first); 64 --key for a file that is not a Nordic DFU package.
            """)

    @Argument(help: ArgumentHelp("The firmware file: .bin, .zip or .suit.", valueName: "file"), completion: .firmwareFile)
    var file: String

    @Option(
        name: .customLong("key"),
        help: ArgumentHelp("Check Nordic DFU init packet signatures with this ECDSA P-256 public key (PEM).", valueName: "pem"),
        completion: .file())
    var key: String?

    @Flag(help: "FILE is a bare application (.bin, or .hex with one range) for a legacy Nordic DFU bootloader, as upgrade --bare sends it.")
    var bare = false

    @OptionGroup var format: JSONOutputOption

    func run() async throws {
        let output = format.output
        let firmware: FirmwareFile
        do {
            firmware = try FirmwareFile.read(file, bare: bare)
        } catch {
            throw Self.fail(error, output)
        }
        switch firmware {
        case .nordicDFU(let package):
            try showNordic(package, output)
        case .smp(let package):
            if key != nil {
                throw Self.fail(CLIError(.usage, "--key applies to Nordic DFU packages only, and \(file) is not one (\(package.kind.title))"), output)
            }
            output.emit(package.jsonDocument(file: file), human: package.humanReport(file: file))
        }
    }

    /// A Nordic DFU package: its report, then (with `--key`) exit 65 unless every signature verifies.
    private func showNordic(_ package: NordicDFUPackage, _ output: Output) throws {
        let publicKey: DFUPublicKey?
        do {
            publicKey = try key.map { path throws(NordicDFUPackageError) in try DFUPublicKey(contentsOf: path) }
        } catch {
            throw Self.fail(CLIError(.dataError, error.description), output)
        }
        let report = NordicDFUReport(package: package, file: file, key: key, publicKey: publicKey)
        output.emit(report.jsonDocument, human: report.humanReport)
        if let failure = report.signatureFailure {
            output.report(CLIError(.dataError, failure, hint: "check that --key is the public half of the key the package was signed with"), document: false)
            throw ExitCode(ExitStatus.dataError.rawValue)
        }
    }

    private static func fail(_ failure: CLIError, _ output: Output) -> ExitCode {
        output.report(failure)
        return ExitCode(failure.status.rawValue)
    }
}
