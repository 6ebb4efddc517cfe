import SMP
import SMPFirmware

/// The text `upgrade` prints for people.
enum UpgradeText {
    static func inspected(_ state: UpgradeDeviceState, file: String) -> String {
        if state.server.isSerialRecovery {
            let held = state.slots.map { "image \($0.image) slot \($0.slot) holds \($0.version)" }
            return "upgrade \(file): MCUboot serial recovery answers (the bootloader, not the application); \(state.parameters); "
                + (held.isEmpty ? "no valid image in its slots" : held.joined(separator: ", "))
        }
        let bootloader = state.bootloaderName ?? "bootloader not reported"
        let running = state.slots.filter(\.active).map { "image \($0.image) runs \($0.version)\($0.confirmed ? "" : " (not confirmed)")" }
        let mode = state.mode == .unknown ? "mode not reported" : state.mode.name
        return "upgrade \(file): \(bootloader), \(mode); \(state.parameters); " + running.joined(separator: ", ")
    }

    static func plan(_ plan: UpgradePlan) -> String {
        var lines = ["plan (\(plan.mode)):"]
        for decision in plan.decisions {
            lines.append("  \(decision.image.summary): \(decision.reason)")
        }
        lines += plan.notes.map { "  note: \($0)" }
        if plan.isNothingToDo {
            lines.append("  nothing to do: \(nothingToDo(plan))")
        } else {
            lines += plan.steps.enumerated().map { "  \($0.offset + 1). \($0.element.summary)" }
        }
        return lines.joined(separator: "\n")
    }

    /// Why a plan has no step: the device runs the firmware, or (upload-only) holds it, by the hash it reports.
    static func nothingToDo(_ plan: UpgradePlan) -> String {
        let held = plan.decisions.compactMap { decision -> UInt64? in
            if case .alreadyUploaded(let slot, _, _) = decision.action { return slot }
            return nil
        }
        guard let slot = held.first else { return "the device already runs this firmware" }
        return "the device reports this firmware's hash for slot \(slot) (not proven until it boots; --restart sends it again)"
    }

    static func done(_ report: UpgradeReport, file: String, command: ([String]) -> String) -> String {
        let seconds = TransferProgressRenderer.seconds(report.seconds)
        guard !report.plan.isNothingToDo else { return "\(file): nothing to do; \(nothingToDo(report.plan))" }
        var lines = ["upgraded with \(file) in \(seconds) (\(report.plan.mode))"]
        for upload in report.uploads {
            let resumed = upload.progress.resumedFrom.map { ", resumed from \($0)" } ?? ""
            lines.append("  uploaded \(upload.progress.total) bytes in \(TransferProgressRenderer.seconds(upload.seconds)) (\(TransferProgressRenderer.rate(upload.progress.bytesPerSecond))\(resumed))")
        }
        for slot in report.finalState {
            var flags = [String]()
            if slot.active { flags.append("active") }
            if slot.confirmed { flags.append("confirmed") }
            if slot.pending { flags.append(slot.permanent ? "pending permanent" : "pending test") }
            let state = flags.isEmpty ? "" : " (\(flags.joined(separator: ", ")))"
            lines.append("  image \(slot.image) slot \(slot.slot): \(slot.version)\(state)")
        }
        switch report.plan.mode {
        case .uploadOnly:
            let marks = report.plan.decisions.filter { $0.action == .upload }.map { "`\(command(["smpctl", "image", "test", Hex.string($0.image.hash)]))`" }
            lines.append(
                "next: mark the image with \(marks.isEmpty ? "`smpctl image test HASH`" : marks.joined(separator: " and ")) "
                    + "(or image confirm, to keep it), then `\(command(["smpctl", "os", "reset"]))`")
        case .testOnly:
            lines.append("the new firmware must confirm itself, or the next reset reverts it")
        case .testAndConfirm, .confirmOnly:
            break
        }
        return lines.joined(separator: "\n")
    }
}
