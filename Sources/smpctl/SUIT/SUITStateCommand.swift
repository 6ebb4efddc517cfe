import ArgumentParser
import JSON
import SMP
import SMPFirmware

/// `smpctl suit state ROLE`: one role's manifest state.
struct SUITStateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "state", abstract: "Show one SUIT manifest role's state.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The role: a number (32, 0x20) or an NCS name (app-root, sec-top, app-local-1...).", valueName: "role"))
    var role: String

    func validate() throws {
        guard SUITManifestRole(parsing: role) != nil else {
            throw ValidationError("\(role) is not a manifest role; give a number (0x20) or a name such as app-root")
        }
    }

    func run() async throws {
        guard let role = SUITManifestRole(parsing: role) else { return }
        try await global.withClient { client, output in
            let manifest = SUITDeviceState.Manifest(role: role, state: try await client.send(SUITManifestStateRead(role: role)))
            output.emit(.object(JSONValue.members(manifest.fields)), human: Self.lines(manifest))
        }
    }

    private static func lines(_ manifest: SUITDeviceState.Manifest) -> String {
        let state = manifest.state
        let pairs: [(String, String?)] = [
            ("role", manifest.role.description), ("class id", state.classID.map { Hex.string($0) }), ("vendor id", state.vendorID.map { Hex.string($0) }),
            ("sequence number", state.sequenceNumber.map(String.init)), ("version", state.versionText),
            ("digest", state.digest.map { Hex.string($0) }), ("digest algorithm", state.digestAlgorithmName),
            ("downgrade prevention", state.downgradePreventionPolicy.map(String.init)),
            ("independent updateability", state.independentUpdateabilityPolicy.map(String.init)),
            ("signature verification", state.signatureVerificationPolicy.map(String.init)),
            ("signature check", state.signatureCheck.map(String.init)),
        ]
        return keyValueLines(pairs.compactMap { key, value in value.map { (key, $0) } })
    }
}
