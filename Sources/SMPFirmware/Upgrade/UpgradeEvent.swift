import SMP

/// What an upgrade of any kind reports while it runs, in order.
public enum UpgradeEvent: Sendable {
    /// The device's state was read.
    case inspected(any UpgradeDeviceState)
    /// The plan was made.
    case planned(any UpgradePlan)
    /// A step starts (`index` counts from 1).
    case stepStarted(any UpgradeStep, index: Int, count: Int)
    /// A step ended successfully after `seconds`.
    case stepFinished(any UpgradeStep, index: Int, count: Int, seconds: Double)
    /// The device asks for a resource, which is uploaded next.
    case resourceRequested(UpgradeResourceRequest)
    /// An upload (of a step, or of a requested resource) advanced.
    case uploadProgress(UpgradeUpload, UploadProgress)
    /// Something worth knowing that does not stop the upgrade.
    case note(String)
}

/// A resource the device asks for during an upgrade (a SUIT device pulls the images its
/// envelope names), and the upload that answers it.
public struct UpgradeResourceRequest: Sendable {
    /// The resource's identifier, as the device names it (`file://app.bin`).
    public var resource: String
    /// One line for people: what the device asks for, and what is sent.
    public var summary: String
    /// The request as JSON members (after `"event": "resource"`).
    public var fields: [UpgradeField]
    /// The upload that serves it.
    public var upload: UpgradeUpload

    /// Creates a request.
    public init(resource: String, summary: String, fields: [UpgradeField], upload: UpgradeUpload) {
        self.resource = resource
        self.summary = summary
        self.fields = fields
        self.upload = upload
    }
}
