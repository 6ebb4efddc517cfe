import JSON
import SMP
import SMPFirmware

/// How an upgrade of any kind reads: as text for people, and as the JSON lines of `upgrade --json`
/// (docs/json-output.md). It renders the protocol-neutral vocabulary (``UpgradeDeviceState``,
/// ``UpgradePlan``, ``UpgradeStep``, ``UpgradeReport``), never a kind of firmware.
enum UpgradeRendering {
    /// `upgrade app.bin: MCUboot, swap using move; …`.
    static func inspectedText(_ state: any UpgradeDeviceState, file: String) -> String {
        "upgrade \(file): \(state.summary)"
    }

    static func inspectedJSON(_ state: any UpgradeDeviceState) -> JSONValue {
        .object([("event", .string("device"))] + JSONValue.members(state.fields))
    }

    /// The plan's heading, its decisions and notes; with `steps` (a dry run, which runs none),
    /// its numbered steps or why there are none. A run shows each step as it starts instead.
    static func planText(_ plan: any UpgradePlan, steps: Bool) -> String {
        var lines = [plan.summary]
        lines += plan.decisionSummaries.map { "  \($0)" }
        lines += plan.notes.map { "  note: \($0)" }
        if steps && plan.isNothingToDo {
            lines.append("nothing to do: \(plan.nothingToDo)")
        } else if steps {
            lines += plan.anySteps.enumerated().map { "  \($0.offset + 1). \($0.element.summary)" }
        }
        return lines.joined(separator: "\n")
    }

    static func planJSON(_ plan: any UpgradePlan) -> JSONValue {
        var members: [(String, JSONValue)] = [("event", .string("plan"))]
        members += JSONValue.members(plan.fields)
        members.append(("steps", .array(plan.anySteps.map { .object(JSONValue.members($0.fields)) })))
        members.append(("notes", .array(plan.notes.map(JSONValue.string))))
        return .object(members)
    }

    static func stepJSON(_ step: any UpgradeStep, index: Int, count: Int, status: String, seconds: Double? = nil) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("event", .string("step")), ("index", .uint(UInt64(index))), ("count", .uint(UInt64(count))),
            ("step", .string(step.name)), ("status", .string(status)), ("summary", .string(step.summary)),
        ]
        if let seconds { members.append(("seconds", .seconds(seconds))) }
        return .object(members)
    }

    static func resourceJSON(_ request: UpgradeResourceRequest) -> JSONValue {
        .object([("event", .string("resource"))] + JSONValue.members(request.fields))
    }

    /// The result: how long it took, each upload, the state at the end and what is left to do.
    static func doneText(_ report: any UpgradeReport, file: String, command: ([String]) -> String) -> String {
        guard !report.plan.isNothingToDo else { return "\(file): nothing to do; \(report.nothingToDo)" }
        var lines = ["upgraded with \(file) in \(TransferProgressRenderer.seconds(report.seconds)) (\(report.summary))"]
        for upload in report.uploads {
            let resumed = upload.progress.resumedFrom.map { ", resumed from \($0)" } ?? ""
            lines.append(
                "  uploaded \(upload.progress.total) bytes in \(TransferProgressRenderer.seconds(upload.seconds)) "
                    + "(\(TransferProgressRenderer.rate(upload.progress.bytesPerSecond))\(resumed))")
        }
        lines += report.finalSummaries.map { "  \($0)" }
        lines += report.advice { command($0.commandWords) }
        return lines.joined(separator: "\n")
    }

    static func doneJSON(_ report: any UpgradeReport, file: String) -> JSONValue {
        var members: [(String, JSONValue)] = [("event", .string("done")), ("file", .string(file))]
        members += JSONValue.members(report.fields)
        members.append(("seconds", .seconds(report.seconds)))
        members.append(("steps", .array(report.steps.map { .object([("step", .string($0.step.name)), ("seconds", .seconds($0.seconds))]) })))
        members.append(("uploads", .array(report.uploads.map(upload))))
        members += JSONValue.members(report.finalFields)
        return .object(members)
    }

    /// One upload's figures.
    static func upload(_ upload: UploadResult) -> JSONValue {
        .object([
            ("size", .uint(upload.progress.total)), ("bytesSent", .uint(upload.progress.bytesSent)),
            ("resumedFrom", upload.progress.resumedFrom.map(JSONValue.uint) ?? .null), ("match", upload.match.map(JSONValue.bool) ?? .null),
            ("seconds", .seconds(upload.seconds)), ("bytesPerSecond", .rate(upload.progress.bytesPerSecond)),
        ])
    }
}
