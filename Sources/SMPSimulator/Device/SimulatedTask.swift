/// One thread as reported by task statistics (OS command 2).
///
/// Stack figures are in 4-byte words, as Zephyr reports them. Fields left nil are not reported,
/// as on a Zephyr build without stack or run-time statistics.
public struct SimulatedTask: Sendable, Hashable {
    /// The name the thread is listed under; several threads may share one.
    public var name: String
    /// Priority (negative for cooperative threads on Zephyr).
    public var priority: Int64
    /// Zephyr `thread_state` bits (`0x02` pending, `0x80` queued, …).
    public var state: UInt64
    /// Stack size in 4-byte words.
    public var stackSize: UInt64?
    /// Stack used in 4-byte words.
    public var stackUsed: UInt64?
    /// Execution cycles.
    public var runtime: UInt64?

    /// Creates a task.
    public init(
        name: String, priority: Int64, state: UInt64, stackSize: UInt64? = nil, stackUsed: UInt64? = nil,
        runtime: UInt64? = nil
    ) {
        self.name = name
        self.priority = priority
        self.state = state
        self.stackSize = stackSize
        self.stackUsed = stackUsed
        self.runtime = runtime
    }

    /// The threads of a Zephyr SMP server over UDP on a Cortex-M33 board.
    public static let zephyrDefaults: [SimulatedTask] = [
        SimulatedTask(name: "smp_udp4", priority: 5, state: 0x02, stackSize: 256, stackUsed: 98, runtime: 40_211),
        SimulatedTask(name: "mcumgr smp", priority: 3, state: 0x80, stackSize: 512, stackUsed: 301, runtime: 1_204_877),
        SimulatedTask(name: "net_mgmt", priority: 7, state: 0x02, stackSize: 192, stackUsed: 77, runtime: 5_318),
        SimulatedTask(name: "rx_q[0]", priority: -1, state: 0x02, stackSize: 384, stackUsed: 140, runtime: 612_004),
        SimulatedTask(name: "tx_q[0]", priority: -1, state: 0x02, stackSize: 384, stackUsed: 122, runtime: 588_730),
        SimulatedTask(name: "sysworkq", priority: -1, state: 0x02, stackSize: 256, stackUsed: 62, runtime: 18_234),
        SimulatedTask(name: "logging", priority: 14, state: 0x02, stackSize: 192, stackUsed: 80, runtime: 93_114),
        SimulatedTask(name: "idle", priority: 15, state: 0x00, stackSize: 80, stackUsed: 12, runtime: 981_442_307),
        SimulatedTask(name: "main", priority: 0, state: 0x02, stackSize: 512, stackUsed: 141, runtime: 22_458),
    ]

    /// The threads of Zephyr 4.4's `smp_svr` serving a serial link only, as the native_sim
    /// `serial` fixture reports them (no run-time statistics; the unnamed thread is the one Zephyr
    /// lists with an empty name). Few enough that the answer fits a 384-byte buffer.
    public static let zephyrSerialDefaults: [SimulatedTask] = [
        SimulatedTask(name: "", priority: -16, state: 0x04, stackSize: 6, stackUsed: 6),
        SimulatedTask(name: "mcumgr smp", priority: 3, state: 0x80, stackSize: 512, stackUsed: 6),
        SimulatedTask(name: "sysworkq", priority: -1, state: 0x02, stackSize: 576, stackUsed: 6),
        SimulatedTask(name: "shell_dummy", priority: 14, state: 0x02, stackSize: 512, stackUsed: 6),
        SimulatedTask(name: "idle", priority: 15, state: 0x00, stackSize: 64, stackUsed: 6),
        SimulatedTask(name: "main", priority: 0, state: 0x04, stackSize: 544, stackUsed: 6),
    ]

    /// The same tasks named by their priority, as Zephyr names them when thread names are off;
    /// threads of equal priority then share a name, so the response map has duplicate keys.
    public static func namedByPriority(_ tasks: [SimulatedTask]) -> [SimulatedTask] {
        tasks.map { task in
            var renamed = task
            renamed.name = String(task.priority)
            return renamed
        }
    }
}
