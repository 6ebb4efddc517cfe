import SMP
import SMPFirmware

/// The text a SUIT `upgrade` prints for people.
extension UpgradeText {
    static func suitInspected(_ state: SUITDeviceState, file: String) -> String {
        let manifests = state.manifests.map { manifest in
            "\(manifest.role.name ?? manifest.role.description) seq \(manifest.state.sequenceNumber.map(String.init) ?? "?")"
        }
        return "upgrade \(file): SUIT; \(state.parameters); " + manifests.joined(separator: ", ")
    }

    static func suitPlan(_ plan: SUITUpgradePlan) -> String {
        let sequence = plan.sequenceNumber.map { ", sequence number \($0)" } ?? ""
        var lines = ["plan (SUIT): envelope \(plan.envelopeFileName), digest \(Hex.string(plan.digest).prefix(16))…\(sequence)"]
        lines += plan.notes.map { "  note: \($0)" }
        if let role = plan.installedAs {
            lines.append("  nothing to do: already installed (\(role) reports this digest)")
        } else {
            lines += plan.steps.enumerated().map { "  \($0.offset + 1). \($0.element.summary)" }
        }
        return lines.joined(separator: "\n")
    }

    static func suitDone(_ report: SUITUpgradeReport, file: String) -> String {
        if let role = report.plan.installedAs { return "\(file): nothing to do; already installed (\(role) reports its digest)" }
        var lines = ["upgraded with \(file) in \(TransferProgressRenderer.seconds(report.seconds)) (SUIT)"]
        for upload in report.uploads {
            lines.append("  uploaded \(upload.progress.total) bytes in \(TransferProgressRenderer.seconds(upload.seconds)) (\(TransferProgressRenderer.rate(upload.progress.bytesPerSecond)))")
        }
        if !report.resourcesServed.isEmpty { lines.append("  resources served: " + report.resourcesServed.joined(separator: ", ")) }
        lines += report.finalState.map { "  " + SUITManifestText.line($0) }
        return lines.joined(separator: "\n")
    }
}
