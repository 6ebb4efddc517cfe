extension SMPGroup {
    /// Log (Mynewt).
    public static let log = SMPGroup(rawValue: 4)
}

extension SMPGroupDescriptor {
    /// The log group (4).
    public static let log = SMPGroupDescriptor(
        group: .log, name: "log", title: "log",
        enablingOption: "a Mynewt group: Zephyr has no such group",
        commands: [
            .init(LogCommandID.show, "show", [LogShow.self]),
            .init(LogCommandID.clear, "clear", [LogClear.self]),
            .init(LogCommandID.append, "append"),
            .init(LogCommandID.moduleList, "moduleList", [LogModuleList.self]),
            .init(LogCommandID.levelList, "levelList", [LogLevelList.self]),
            .init(LogCommandID.logList, "logList", [LogList.self]),
        ],
        probe: SMPRequest(group: .log, command: LogCommandID.logList, operation: .read, name: "probe log"))
}
