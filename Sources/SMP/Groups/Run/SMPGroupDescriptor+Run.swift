extension SMPGroup {
    /// Run-time tests (Mynewt).
    public static let run = SMPGroup(rawValue: 7)
}

extension SMPGroupDescriptor {
    /// The run group (7).
    public static let run = SMPGroupDescriptor(
        group: .run, name: "run", title: "run",
        enablingOption: "a Mynewt group: Zephyr has no such group",
        commands: [
            .init(RunCommandID.test, "test", [RunTest.self]),
            .init(RunCommandID.list, "list", [RunList.self]),
        ],
        probe: SMPRequest(group: .run, command: RunCommandID.list, operation: .read, name: "probe run"))
}
