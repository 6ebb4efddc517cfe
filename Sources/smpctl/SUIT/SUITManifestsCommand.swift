import ArgumentParser
import JSON
import SMP
import SMPFirmware

/// `smpctl suit manifests`: every manifest role and its state.
struct SUITManifestsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "manifests", abstract: "List the device's SUIT manifest roles with their sequence numbers, versions and digests.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await global.withClient { client, output in
            let manifests = try await SUITDeviceState.readManifests(from: client)
            output.emit(.object([("manifests", .array(manifests.map { .object(JSONValue.members($0.fields)) }))]), human: Self.table(manifests))
        }
    }

    private static func table(_ manifests: [SUITDeviceState.Manifest]) -> String {
        var table = Table(["ROLE", "NAME", "SEQUENCE", "VERSION", "DIGEST"], alignments: [.left, .left, .right, .left, .left])
        for manifest in manifests {
            let state = manifest.state
            table.add([
                "0x" + String(manifest.role.rawValue, radix: 16), manifest.role.name ?? "-", state.sequenceNumber.map(String.init) ?? "-",
                state.versionText ?? "-", state.digest.map { Hex.string($0) + (state.digestAlgorithmName.map { " (\($0))" } ?? "") } ?? "-",
            ])
        }
        return table.rendered
    }
}
