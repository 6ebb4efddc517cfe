import CBOR

extension SMPGroup {
    /// Shell command execution.
    public static let shell = SMPGroup(rawValue: 9)
}

extension SMPGroupDescriptor {
    /// The shell group (9).
    public static let shell = SMPGroupDescriptor(
        group: .shell, name: "shell", title: "shell", firmwareName: "shell mgmt",
        enablingOption: "CONFIG_MCUMGR_GRP_SHELL",
        commands: [
            .init(0, "execute", [ShellExecute.self]),
        ],
        errors: ShellGroupError.self,
        probe: SMPRequest(group: .shell, command: 0, operation: .write, payload: ["argv": .array([])], name: "probe shell"))
}
