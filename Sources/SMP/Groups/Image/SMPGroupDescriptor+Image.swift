extension SMPGroup {
    /// Image management.
    public static let image = SMPGroup(rawValue: 1)
}

extension SMPGroupDescriptor {
    /// The image group (1).
    public static let image = SMPGroupDescriptor(
        group: .image, name: "image", title: "image", firmwareName: "img mgmt",
        enablingOption: "CONFIG_MCUMGR_GRP_IMG",
        commands: [
            .init(ImageCommandID.state, "state", [ImageState.self, ImageTest.self, ImageConfirm.self]),
            .init(ImageCommandID.upload, "upload", [ImageUploadChunk.self]),
            .init(ImageCommandID.erase, "erase", [ImageErase.self]),
            .init(ImageCommandID.slotInfo, "slotInfo", [ImageSlotInfo.self]),
        ],
        errors: ImageGroupError.self,
        probe: SMPRequest(group: .image, command: ImageCommandID.state, operation: .read, name: "probe image"))
}
