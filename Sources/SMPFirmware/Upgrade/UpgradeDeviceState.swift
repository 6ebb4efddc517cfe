/// What an upgrade of any kind learns from the device before it plans (``MCUbootDeviceState``,
/// ``SUITDeviceState``), as it is reported.
public protocol UpgradeDeviceState: Sendable {
    /// One line for people: the bootloader, the link's parameters, what runs.
    var summary: String { get }
    /// The state as JSON members (after `"event": "device"`).
    var fields: [UpgradeField] { get }
}
