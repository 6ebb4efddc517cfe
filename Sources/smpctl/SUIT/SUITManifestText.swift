import SMP
import SMPFirmware

/// How a manifest role and its state read for people.
enum SUITManifestText {
    /// `app-root (0x20): sequence 3, version 1.0.0, digest 353d365fbc58c07a… (sha-256)`.
    static func line(_ manifest: SUITDeviceState.Manifest) -> String {
        let state = manifest.state
        var parts: [String] = []
        if let sequence = state.sequenceNumber { parts.append("sequence \(sequence)") }
        if let version = state.versionText { parts.append("version \(version)") }
        if let digest = state.digest {
            parts.append("digest \(Hex.string(digest).prefix(16))…" + (state.digestAlgorithmName.map { " (\($0))" } ?? ""))
        }
        return "\(manifest.role): " + (parts.isEmpty ? "no state reported" : parts.joined(separator: ", "))
    }
}
