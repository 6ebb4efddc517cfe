/// A step the user can take next that a front end names in its own terms.
///
/// The library's hints and notes never name a tool's command: where the next step is a command
/// (list the serial ports, read the image list), they carry it as this value. ``description``
/// words it without naming any tool; smpctl names its command instead.
public enum SMPNextStep: Sendable, Hashable, CustomStringConvertible {
    /// See which serial ports are attached and tell them apart.
    case listSerialPorts
    /// Scan for Bluetooth LE devices, named or not.
    case scanBluetooth
    /// Set the device's real-time clock.
    case setDeviceClock
    /// Read the image list (the slots, their versions and flags).
    case listImages
    /// Free the upload slot: erase it, or reset the device.
    case freeUploadSlot
    /// Mark an uploaded image for a test boot; `hash` when the image is known.
    case testImage(hash: String?)
    /// Reset the device.
    case resetDevice
    /// Read the state of the device's SUIT manifests.
    case listSUITManifests

    /// The step in words that name no tool, e.g. "list the serial ports".
    public var description: String {
        switch self {
        case .listSerialPorts: "list the serial ports to tell them apart"
        case .scanBluetooth: "scan for the Bluetooth LE devices around, named or not"
        case .setDeviceClock: "set the device's date and time (OS group, date-time write)"
        case .listImages: "read the image list to see the device's state"
        case .freeUploadSlot: "free the upload slot: erase it (image group, erase) or reset the device"
        case .testImage(let hash): "mark the image for a test boot (image group, state write\(hash.map { " of \($0)" } ?? ""))"
        case .resetDevice: "reset the device (OS group, reset)"
        case .listSUITManifests: "read the SUIT manifests' state to see the device's state"
        }
    }
}
