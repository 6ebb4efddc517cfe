import SMP

/// The Mynewt log group (4) of a ``VirtualDevice``: its logs, modules and levels.
public struct SimulatedLogConfiguration: Sendable, Hashable {
    /// The logs and the entries they start with, in the order `log list` reports them.
    public var logs: [SimulatedLog]
    /// The module names and IDs (`module_map`).
    public var modules: [LogNamedID]
    /// The level names and IDs (`level_map`).
    public var levels: [LogNamedID]

    /// Creates a configuration; the defaults are a few Mynewt-like logs with entries of every type.
    public init(
        logs: [SimulatedLog] = SimulatedLog.mynewtDefaults, modules: [LogNamedID] = Self.mynewtModules,
        levels: [LogNamedID] = Self.mynewtLevels
    ) {
        self.logs = logs
        self.modules = modules
        self.levels = levels
    }

    /// Mynewt's levels.
    public static let mynewtLevels = [
        LogNamedID(name: "DEBUG", id: 0), LogNamedID(name: "INFO", id: 1), LogNamedID(name: "WARN", id: 2),
        LogNamedID(name: "ERROR", id: 3), LogNamedID(name: "CRITICAL", id: 4),
    ]

    /// Some of Mynewt's modules.
    public static let mynewtModules = [
        LogNamedID(name: "DEFAULT", id: 0), LogNamedID(name: "OS", id: 1), LogNamedID(name: "NEWTMGR", id: 2),
        LogNamedID(name: "NIMBLE_HOST", id: 4), LogNamedID(name: "REBOOT", id: 6),
    ]
}

/// One log of a simulated device.
public struct SimulatedLog: Sendable, Hashable {
    /// The log's name.
    public var name: String
    /// Its type (Mynewt: 0 console, 1 storage, 2 stream).
    public var type: Int64
    /// The entries it holds at start, oldest first (their indexes are given by the device).
    public var entries: [SimulatedLogEntry]

    /// Creates a log.
    public init(name: String, type: Int64 = 1, entries: [SimulatedLogEntry]) {
        self.name = name
        self.type = type
        self.entries = entries
    }

    /// `reboot_log` with one entry, and `log` with text, CBOR and binary entries of several levels and modules.
    public static let mynewtDefaults: [SimulatedLog] = [
        SimulatedLog(name: "reboot_log", entries: [
            SimulatedLogEntry(timestamp: 1_000, level: 3, module: 6, message: .text("rsn:HARD, cnt:2, img:1.2.3.0")),
        ]),
        SimulatedLog(name: "log", entries: [
            SimulatedLogEntry(timestamp: 2_500_000, level: 1, module: 0, message: .text("system started")),
            SimulatedLogEntry(timestamp: 2_750_000, level: 0, module: 2, message: .text("newtmgr ready")),
            SimulatedLogEntry(timestamp: 3_000_000, level: 2, module: 4, message: .cbor([0xA1, 0x63, 0x72, 0x73, 0x73, 0x2A])),
            SimulatedLogEntry(timestamp: 3_100_000, level: 3, module: 1, message: .binary([0xDE, 0xAD, 0xBE, 0xEF])),
            SimulatedLogEntry(timestamp: 4_000_000, level: 4, module: 0, message: .text("battery low")),
        ]),
    ]
}

/// One entry of a simulated log.
public struct SimulatedLogEntry: Sendable, Hashable {
    /// Its timestamp (microseconds).
    public var timestamp: Int64
    /// Its level.
    public var level: Int64
    /// Its module.
    public var module: Int64
    /// What it holds.
    public var message: LogEntry.Message

    /// Creates an entry.
    public init(timestamp: Int64, level: Int64, module: Int64, message: LogEntry.Message) {
        self.timestamp = timestamp
        self.level = level
        self.module = module
        self.message = message
    }
}
