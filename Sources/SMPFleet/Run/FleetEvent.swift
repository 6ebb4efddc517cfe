/// What a fleet run reports while it runs, for a live display. `index` is the device's place in
/// the target list. Events of one device come in order; events of different devices interleave,
/// from any thread.
public enum FleetEvent: Sendable {
    /// The device's turn came: its connection is being opened.
    case started(index: Int, DeviceTarget)
    /// The device entered a phase (`connect`, `inspect`, `upload`…).
    case phase(index: Int, name: String)
    /// An upload advanced: `sent` of `total` bytes, at `bytesPerSecond` when known. At most about
    /// ten per second per device, and always the last one of an upload.
    case progress(index: Int, sent: Int, total: Int, bytesPerSecond: Double?)
    /// Something worth knowing that does not stop the device.
    case note(index: Int, String)
    /// The device is done (also sent for devices that did not start because the run was cancelled).
    case finished(DeviceRecord)
}
