import CBOR

/// Task statistics (OS command 2): one entry per thread, in the device's order.
/// Names may repeat (Zephyr names threads by priority when thread names are off).
public struct OSTaskStatistics: SMPCommand {
    /// One thread's figures; fields a device leaves out are nil.
    public struct Task: Sendable, Hashable {
        /// Thread name (or its priority/index as text).
        public var name: String
        /// Priority.
        public var priority: Int64?
        /// Thread ID (Zephyr: index in the iteration).
        public var id: Int64?
        /// State bits.
        public var state: Int64?
        /// Stack size in 4-byte words.
        public var stackSize: Int64?
        /// Stack used in 4-byte words.
        public var stackUsed: Int64?
        /// Execution cycles.
        public var runtime: Int64?
        /// Context switches.
        public var contextSwitches: Int64?
        /// Last check-in.
        public var lastCheckin: Int64?
        /// Next check-in.
        public var nextCheckin: Int64?

        /// Creates an entry.
        public init(name: String) { self.name = name }
    }

    /// Creates the request.
    public init() {}

    public var request: SMPRequest { SMPRequest(group: .os, command: OSCommandID.taskStatistics, operation: .read, name: "os task statistics") }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> [Task] {
        var tasks: [Task] = []
        for entry in try payload.map("tasks") {
            guard let name = entry.key.stringValue ?? entry.key.int64Value.map(String.init) else {
                throw SMPResponseError("a task name is \(entry.key.typeName), not text")
            }
            guard let fields = entry.value.mapValue else {
                throw SMPResponseError("task \"\(name)\" is \(entry.value.typeName), not a map")
            }
            var task = Task(name: name)
            task.priority = try fields.optionalInteger("prio")
            task.id = try fields.optionalInteger("tid")
            task.state = try fields.optionalInteger("state")
            task.stackSize = try fields.optionalInteger("stksiz")
            task.stackUsed = try fields.optionalInteger("stkuse")
            task.runtime = try fields.optionalInteger("runtime")
            task.contextSwitches = try fields.optionalInteger("cswcnt")
            task.lastCheckin = try fields.optionalInteger("last_checkin")
            task.nextCheckin = try fields.optionalInteger("next_checkin")
            tasks.append(task)
        }
        return tasks
    }
}
