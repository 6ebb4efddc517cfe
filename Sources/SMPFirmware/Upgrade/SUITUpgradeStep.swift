import SMP

/// One step of a SUIT upgrade plan (docs/protocol/suit.md §14, docs/protocol/packages.md §18.2), run in order by
/// ``SUITUpgrader``.
public enum SUITUpgradeStep: UpgradeStep, Equatable {
    /// Upload a cache image to its partition (SUIT command 5); the `number`-th of `count`.
    case uploadCache(SUITUpgradeFile, partition: Int, number: Int, count: Int)
    /// Upload the envelope (SUIT command 2); deferred when caches were uploaded first.
    case uploadEnvelope(SUITUpgradeFile, deferInstall: Bool)
    /// Start processing the deferred envelope (`off 0, len 0`).
    case processEnvelope
    /// Poll (command 3) and upload each resource the device asks for (command 4), until it asks
    /// for nothing more or restarts.
    case serveResources
    /// Wait for the device to restart (reset it if it does not restart on its own).
    case waitForRestart
    /// Check that the device reports the envelope's digest and sequence number.
    case verify(digest: [UInt8], sequenceNumber: UInt64?)

    /// A short name for logs and JSON.
    public var name: String {
        switch self {
        case .uploadCache: return "upload-cache"
        case .uploadEnvelope: return "upload-envelope"
        case .processEnvelope: return "process"
        case .serveResources: return "serve-resources"
        case .waitForRestart: return "wait"
        case .verify: return "verify-manifest"
        }
    }

    /// One line for people.
    public var summary: String {
        switch self {
        case .uploadCache(let file, let partition, let number, let count):
            return "upload cache \(file.summary) to partition \(partition)" + (count > 1 ? " [\(number)/\(count)]" : "")
        case .uploadEnvelope(let file, let deferInstall):
            return "upload the SUIT envelope \(file.summary)" + (deferInstall ? ", install deferred" : "")
        case .processEnvelope:
            return "start processing the envelope"
        case .serveResources:
            return "serve the resources the device asks for"
        case .waitForRestart:
            return "wait for the device to restart (reset it if it does not)"
        case .verify(let digest, let sequence):
            return "check that the device reports manifest digest \(Hex.string(digest).prefix(16))…"
                + (sequence.map { " and sequence number \($0)" } ?? "")
        }
    }

    /// The cache image or envelope an upload step sends.
    public var upload: UpgradeUpload? {
        switch self {
        case .uploadCache(let file, _, _, _), .uploadEnvelope(let file, _): return file.upload
        case .processEnvelope, .serveResources, .waitForRestart, .verify: return nil
        }
    }
}
