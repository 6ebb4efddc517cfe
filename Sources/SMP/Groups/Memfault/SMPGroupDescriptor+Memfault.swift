extension SMPGroup {
    /// Memfault (nRF Connect SDK).
    public static let memfault = SMPGroup(rawValue: 128)
}

extension SMPGroupDescriptor {
    /// The Memfault group (128).
    public static let memfault = SMPGroupDescriptor(
        group: .memfault, name: "memfault", title: "Memfault",
        enablingOption: "CONFIG_MCUMGR_GRP_* options")
}
