extension SMPGroup {
    /// SUIT (nRF Connect SDK).
    public static let suit = SMPGroup(rawValue: 66)
}

extension SMPGroupDescriptor {
    /// The SUIT group (66).
    public static let suit = SMPGroupDescriptor(
        group: .suit, name: "suit", title: "SUIT",
        enablingOption: "CONFIG_MGMT_SUITFU_GRP_SUIT (nRF Connect SDK)",
        commands: [
            .init(SUITCommandID.manifestList, "manifestList", [SUITManifestList.self]),
            .init(SUITCommandID.manifestState, "manifestState", [SUITManifestStateRead.self]),
            .init(SUITCommandID.envelopeUpload, "envelopeUpload", [SUITUploadChunk.self, SUITProcessEnvelope.self]),
            .init(SUITCommandID.poll, "poll", [SUITPoll.self]),
            .init(SUITCommandID.resourceUpload, "resourceUpload", [SUITUploadChunk.self]),
            .init(SUITCommandID.cacheUpload, "cacheUpload", [SUITUploadChunk.self]),
            .init(SUITCommandID.cleanup, "cleanup", [SUITCleanup.self]),
        ],
        probe: SMPRequest(group: .suit, command: SUITCommandID.manifestList, operation: .read, name: "probe suit"))
}
