import SMP
import SMPFirmware

/// The JSON lines of `upgrade --json` (docs/json-output.md).
enum UpgradeJSON {
    static func inspected(_ state: UpgradeDeviceState) -> JSONValue {
        .object([
            ("event", .string("device")), ("bootloader", state.bootloaderName.map(JSONValue.string) ?? .null),
            ("bootloaderMode", .string(state.mode.name)), ("noDowngrade", .bool(state.noDowngrade)),
            ("server", .string(state.server.role.rawValue)), ("serialRecovery", .bool(state.server.isSerialRecovery)),
            ("serverEvidence", .array(state.server.evidence.map(JSONValue.string))),
            ("bufferSize", .uint(UInt64(state.parameters.bufferSize))), ("bufferCount", .uint(UInt64(state.parameters.bufferCount))),
            ("images", .array(state.slots.map(slot))),
        ])
    }

    static func plan(_ plan: UpgradePlan) -> JSONValue {
        .object([
            ("event", .string("plan")), ("mode", .string(plan.mode.rawValue)),
            ("images", .array(plan.decisions.map { decision in
                .object(image(decision.image) + [("action", .string(action(decision.action))), ("reason", .string(decision.reason))])
            })),
            ("steps", .array(plan.steps.map { .object([("step", .string($0.name)), ("summary", .string($0.summary))]) })),
            ("notes", .array(plan.notes.map(JSONValue.string))),
        ])
    }

    static func step(_ step: UpgradeStep, index: Int, count: Int, status: String, seconds: Double? = nil) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("event", .string("step")), ("index", .uint(UInt64(index))), ("count", .uint(UInt64(count))),
            ("step", .string(step.name)), ("status", .string(status)), ("summary", .string(step.summary)),
        ]
        if let seconds { members.append(("seconds", .seconds(seconds))) }
        return .object(members)
    }

    static func done(_ report: UpgradeReport, file: String) -> JSONValue {
        .object([
            ("event", .string("done")), ("file", .string(file)), ("mode", .string(report.plan.mode.rawValue)),
            ("seconds", .seconds(report.seconds)),
            ("steps", .array(report.steps.map { .object([("step", .string($0.step.name)), ("seconds", .seconds($0.seconds))]) })),
            ("uploads", .array(report.uploads.map(upload))),
            ("images", .array(report.finalState.map(slot))),
        ])
    }

    /// One upload's figures.
    static func upload(_ upload: UploadResult) -> JSONValue {
        .object([
            ("size", .uint(upload.progress.total)), ("bytesSent", .uint(upload.progress.bytesSent)),
            ("resumedFrom", upload.progress.resumedFrom.map(JSONValue.uint) ?? .null), ("match", upload.match.map(JSONValue.bool) ?? .null),
            ("seconds", .seconds(upload.seconds)), ("bytesPerSecond", .rate(upload.progress.bytesPerSecond)),
        ])
    }

    private static func image(_ image: UpgradeImage) -> [(String, JSONValue)] {
        [
            ("image", .uint(UInt64(image.image))), ("slot", image.slot.map { .uint(UInt64($0)) } ?? .null), ("file", .string(image.fileName)),
            ("target", .string(image.target.description)), ("version", .string(image.version.description)),
            ("imageHash", .string(image.hashHex)), ("size", .uint(UInt64(image.bytes.count))),
        ]
    }

    private static func action(_ action: UpgradePlan.Decision.Action) -> String {
        switch action {
        case .upload: return "upload"
        case .alreadyUploaded: return "already-uploaded"
        case .running: return "running"
        case .otherSlotVariant: return "not-needed"
        }
    }

    private static func slot(_ slot: ImageSlotState) -> JSONValue {
        .object([
            ("image", .uint(slot.image)), ("slot", .uint(slot.slot)), ("version", .string(slot.version)),
            ("imageHash", slot.hash.map { .string(Hex.string($0)) } ?? .null), ("active", .bool(slot.active)),
            ("confirmed", .bool(slot.confirmed)), ("pending", .bool(slot.pending)), ("permanent", .bool(slot.permanent)),
        ])
    }
}
