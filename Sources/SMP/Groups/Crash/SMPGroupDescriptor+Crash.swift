extension SMPGroup {
    /// Crash (Mynewt).
    public static let crash = SMPGroup(rawValue: 5)
}

extension SMPGroupDescriptor {
    /// The crash group (5).
    public static let crash = SMPGroupDescriptor(
        group: .crash, name: "crash", title: "crash",
        enablingOption: "a Mynewt group: Zephyr has no such group",
        commands: [
            .init(0, "test", [CrashTest.self]),
        ])
}
