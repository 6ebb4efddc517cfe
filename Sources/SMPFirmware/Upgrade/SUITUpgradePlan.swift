import SMP

/// What a SUIT upgrade will do: the envelope, whether the device already has it, and the steps.
public struct SUITUpgradePlan: Sendable, Equatable {
    /// The envelope's file name.
    public var envelopeFileName: String
    /// The envelope's manifest digest.
    public var digest: [UInt8]
    /// The envelope's sequence number, when its manifest has one.
    public var sequenceNumber: UInt64?
    /// The role that already reports the envelope's digest (nothing to do), if any.
    public var installedAs: SUITManifestRole?
    /// The steps, in order; empty when the device already has the envelope.
    public var steps: [SUITUpgradeStep]
    /// Things the user should know.
    public var notes: [String]

    /// Whether the device already has the envelope installed.
    public var isNothingToDo: Bool { steps.isEmpty }
}
