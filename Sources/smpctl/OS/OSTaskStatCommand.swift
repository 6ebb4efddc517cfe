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
            let tasks = try await client.send(OSTaskStatistics())
            let zephyr = output.json ? false : await Self.runsZephyr(client)
            let (json, human) = Self.render(tasks, zephyr: zephyr)
            output.emit(json, human: human)
        }
    }

    /// Whether the device's kernel is Zephyr (`os info` `s`), whose thread states the table can name.
    static func runsZephyr(_ client: SMPClient) async -> Bool {
        (try? await client.send(OSApplicationInfo(format: "s"))) == "Zephyr"
    }

    /// The task list as a JSON document and as a table; `zephyr`: the states by name (the JSON
    /// keeps the number).
    static func render(_ tasks: [OSTaskStatistics.Task], zephyr: Bool) -> (JSONValue, String) {
            var table = Table(
                ["TASK", "PRIO", "TID", "STATE", "STACK", "USED", "RUNTIME", "CSW"],
                alignments: [.left, .right, .right, zephyr ? .left : .right, .right, .right, .right, .right])
            for task in tasks {
                let state = zephyr ? task.state.map(zephyrState) : task.state.map(String.init)
                let counts = [task.stackSize, task.stackUsed, task.runtime, task.contextSwitches].map { $0.map(String.init) }
                let cells: [String?] = [task.name, task.priority.map(String.init), task.id.map(String.init), state] + counts
                table.add(cells.map { $0 ?? "-" })
            }
            return (.object([("tasks", .array(tasks.map(\.json)))]), tasks.isEmpty ? "no tasks" : table.rendered)
    }

    /// The names Zephyr gives the bits of a thread's state (`_THREAD_*` in kernel_structs.h,
    /// joined with `+` as `k_thread_state_str` does; bit 2 was "prestart" before it meant
    /// "sleeping"), `-` for none, and any other bit as a number.
    static func zephyrState(_ state: Int64) -> String {
        let names = ["dummy", "pending", "sleeping", "dead", "suspended", "aborting", "suspending", "queued"]
        var parts = names.indices.filter { state & (1 << $0) != 0 }.map { names[$0] }
        let other = state & ~0xFF
        if other != 0 { parts.append("0x" + String(other, radix: 16)) }
        return parts.isEmpty ? "-" : parts.joined(separator: "+")
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
