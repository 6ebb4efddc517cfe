extension SMPGroup {
    /// Split image (Mynewt).
    public static let split = SMPGroup(rawValue: 6)
}

extension SMPGroupDescriptor {
    /// The split image group (6).
    public static let split = SMPGroupDescriptor(
        group: .split, name: "split", title: "split image",
        enablingOption: "a Mynewt group: Zephyr has no such group")
}
