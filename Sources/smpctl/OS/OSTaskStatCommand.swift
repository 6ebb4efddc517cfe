import ArgumentParser
import JSON
import SMP

/// `smpctl os taskstat`
struct OSTaskStatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "taskstat", abstract: "List the device's threads with priority, state and stack use.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await global.withClient { client, output in
            let (json, human) = Self.render(try await client.send(OSTaskStatistics()))
            output.emit(json, human: human)
        }
    }

    /// The task list as a JSON document and as a table.
    static func render(_ tasks: [OSTaskStatistics.Task]) -> (JSONValue, String) {
            var table = Table(
                ["TASK", "PRIO", "TID", "STATE", "STACK", "USED", "RUNTIME", "CSW"],
                alignments: [.left, .right, .right, .right, .right, .right, .right, .right])
            for task in tasks {
                table.add([task.name] + [task.priority, task.id, task.state, task.stackSize, task.stackUsed, task.runtime, task.contextSwitches]
                    .map { $0.map(String.init) ?? "-" })
            }
            return (.object([("tasks", .array(tasks.map(\.json)))]), tasks.isEmpty ? "no tasks" : table.rendered)
    }
}

extension OSTaskStatistics.Task {
    var json: JSONValue {
        let fields: [(String, Int64?)] = [
            ("priority", priority), ("id", id), ("state", state), ("stackSize", stackSize), ("stackUsed", stackUsed),
            ("runtime", runtime), ("contextSwitches", contextSwitches), ("lastCheckin", lastCheckin), ("nextCheckin", nextCheckin),
        ]
        return .object([("name", .string(name))] + fields.map { ($0.0, $0.1.map(JSONValue.int) ?? .null) })
    }
}
