extension SMPGroup {
    /// OS / default group: echo, reset, task statistics, parameters, info, bootloader info.
    public static let os = SMPGroup(rawValue: 0)
}

extension SMPGroupDescriptor {
    /// The OS group (0).
    public static let os = SMPGroupDescriptor(
        group: .os, name: "os", title: "OS", firmwareName: "os mgmt",
        enablingOption: "CONFIG_MCUMGR_GRP_OS and the command's own option (e.g. CONFIG_MCUMGR_GRP_OS_INFO, _DATETIME, _TASKSTAT, _MCUMGR_PARAMS, _BOOTLOADER_INFO)",
        commands: [
            .init(OSCommandID.echo, "echo", [OSEcho.self]),
            .init(OSCommandID.consoleEcho, "consoleEcho", [OSConsoleEcho.self]),
            .init(OSCommandID.taskStatistics, "taskStatistics", [OSTaskStatistics.self]),
            .init(OSCommandID.memoryPoolStatistics, "memoryPoolStatistics", [OSMemoryPoolStatistics.self]),
            .init(OSCommandID.dateTime, "dateTime", [OSDateTimeRead.self, OSDateTimeWrite.self]),
            .init(OSCommandID.reset, "reset", [OSReset.self]),
            .init(OSCommandID.parameters, "parameters", [OSParameters.self]),
            .init(OSCommandID.info, "info", [OSApplicationInfo.self]),
            .init(OSCommandID.bootloaderInfo, "bootloaderInfo", [OSBootloaderInfo.self, OSBootloaderName.self, OSBootloaderMode.self]),
        ],
        errors: OSGroupError.self,
        probe: SMPRequest(group: .os, command: OSCommandID.parameters, operation: .read, name: "probe os"))
}
