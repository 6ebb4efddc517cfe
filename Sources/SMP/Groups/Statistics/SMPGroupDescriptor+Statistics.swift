extension SMPGroup {
    /// Statistics.
    public static let statistics = SMPGroup(rawValue: 2)
}

extension SMPGroupDescriptor {
    /// The statistics group (2).
    public static let statistics = SMPGroupDescriptor(
        group: .statistics, name: "statistics", title: "statistics", firmwareName: "stat mgmt",
        enablingOption: "CONFIG_MCUMGR_GRP_STAT",
        commands: [
            .init(StatisticsCommandID.read, "read", [StatisticsRead.self]),
            .init(StatisticsCommandID.list, "list", [StatisticsList.self]),
        ],
        errors: StatisticsGroupError.self,
        reportsErrorsAs: .zephyrBasic,
        probe: SMPRequest(group: .statistics, command: StatisticsCommandID.list, operation: .read, name: "probe statistics"))
}
