import SMP
import SMPFirmware

/// The JSON lines of a SUIT `upgrade --json` (docs/json-output.md).
extension UpgradeJSON {
    static func suitInspected(_ state: SUITDeviceState) -> JSONValue {
        .object([
            ("event", .string("device")), ("bootloader", state.bootloaderName.map(JSONValue.string) ?? .null),
            ("bufferSize", .uint(UInt64(state.parameters.bufferSize))), ("bufferCount", .uint(UInt64(state.parameters.bufferCount))),
            ("manifests", .array(state.manifests.map(manifest))),
        ])
    }

    static func suitPlan(_ plan: SUITUpgradePlan) -> JSONValue {
        .object([
            ("event", .string("plan")), ("bootloader", .string("SUIT")), ("envelope", .string(plan.envelopeFileName)),
            ("digest", .string(Hex.string(plan.digest))), ("sequenceNumber", plan.sequenceNumber.map(JSONValue.uint) ?? .null),
            ("installedAs", plan.installedAs.map { .string($0.name ?? String($0.rawValue)) } ?? .null),
            ("steps", .array(plan.steps.map { .object([("step", .string($0.name)), ("summary", .string($0.summary))]) })),
            ("notes", .array(plan.notes.map(JSONValue.string))),
        ])
    }

    static func resourceRequested(_ request: SUITResourceRequest, file: SUITUpgradeFile) -> JSONValue {
        .object([
            ("event", .string("resource")), ("resource", .string(request.resourceID)), ("session", .uint(request.sessionID)),
            ("file", .string(file.fileName)), ("size", .uint(UInt64(file.bytes.count))),
        ])
    }

    static func suitDone(_ report: SUITUpgradeReport, file: String) -> JSONValue {
        .object([
            ("event", .string("done")), ("file", .string(file)), ("bootloader", .string("SUIT")),
            ("installed", .bool(!report.plan.isNothingToDo)), ("seconds", .seconds(report.seconds)),
            ("steps", .array(report.steps.map { .object([("step", .string($0.step.name)), ("seconds", .seconds($0.seconds))]) })),
            ("uploads", .array(report.uploads.map(upload))),
            ("resources", .array(report.resourcesServed.map(JSONValue.string))),
            ("manifests", .array(report.finalState.map(manifest))),
        ])
    }

    /// One manifest role and its state, as `suit manifests --json` also prints it.
    static func manifest(_ manifest: SUITDeviceState.Manifest) -> JSONValue {
        let state = manifest.state
        return .object([
            ("role", .uint(manifest.role.rawValue)), ("roleName", manifest.role.name.map(JSONValue.string) ?? .null),
            ("classId", hex(state.classID)), ("vendorId", hex(state.vendorID)),
            ("digest", hex(state.digest)), ("digestAlgorithm", state.digestAlgorithmName.map(JSONValue.string) ?? .null),
            ("sequenceNumber", state.sequenceNumber.map(JSONValue.uint) ?? .null),
            ("version", state.versionText.map(JSONValue.string) ?? .null),
            ("downgradePreventionPolicy", state.downgradePreventionPolicy.map(JSONValue.uint) ?? .null),
            ("independentUpdateabilityPolicy", state.independentUpdateabilityPolicy.map(JSONValue.uint) ?? .null),
            ("signatureVerificationPolicy", state.signatureVerificationPolicy.map(JSONValue.uint) ?? .null),
            ("signatureCheck", state.signatureCheck.map(JSONValue.uint) ?? .null),
        ])
    }

    private static func hex(_ bytes: [UInt8]?) -> JSONValue {
        bytes.map { .string(Hex.string($0)) } ?? .null
    }
}
