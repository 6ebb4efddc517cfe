import SMP

/// What a SUIT upgrade will do: the envelope, whether the device already has it, and the steps.
public struct SUITUpgradePlan: UpgradePlan, Equatable {
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

    /// `plan (SUIT): envelope app.suit, digest 353d365fbc58c07a…, sequence number 3`.
    public var summary: String {
        let sequence = sequenceNumber.map { ", sequence number \($0)" } ?? ""
        return "plan (SUIT): envelope \(envelopeFileName), digest \(Hex.string(digest).prefix(16))…\(sequence)"
    }

    /// None: the envelope is the one decision, in ``summary``.
    public var decisionSummaries: [String] { [] }

    /// `already installed (app-root (0x20) reports this digest)`.
    public var nothingToDo: String {
        installedAs.map { "already installed (\($0) reports this digest)" } ?? "nothing to do"
    }

    /// `already installed as app-root (0x20) (sequence number 3)`.
    public var nothingToDoBrief: String {
        let sequence = sequenceNumber.map { " (sequence number \($0))" } ?? ""
        let role = installedAs.map { " as \($0)" } ?? ""
        return "already installed\(role)\(sequence)"
    }

    /// The bootloader, the envelope, its digest and sequence number, and the role that already has it.
    public var fields: [UpgradeField] {
        [
            UpgradeField("bootloader", .string("SUIT")), UpgradeField("envelope", .string(envelopeFileName)),
            UpgradeField("digest", .hex(digest)), UpgradeField("sequenceNumber", sequenceNumber.map(UpgradeValue.uint) ?? .null),
            UpgradeField("installedAs", installedAs.map { .string($0.name ?? String($0.rawValue)) } ?? .null),
        ]
    }
}
