/// How a front end spells the upgrade settings that the library's notes, reasons and hints point
/// at.
///
/// The library never spells a tool's options. Where its text points at a setting ("restart sends
/// it again"), it uses these names: ``library`` names them as ``UpgradeOptions``' properties, and
/// a command-line front end passes its own options' spellings in ``UpgradeOptions/settingNames``.
public struct UpgradeSettingNames: Sendable, Hashable {
    /// Sends an image again from offset 0 (``ChunkedUploadOptions/restart``).
    public var restart: String
    /// Installs through MCUboot's serial recovery (``UpgradeOptions/viaBootloader``).
    public var viaBootloader: String
    /// Asks the device to refuse an older image (``UpgradeOptions/refuseOlder``).
    public var refuseOlder: String
    /// How long the device may take to restart (``UpgradeOptions/resetTimeout``).
    public var resetTimeout: String
    /// The upgrade mode (``UpgradeOptions/mode``); ``mode(_:)`` names one value.
    public var mode: String

    /// Names each setting.
    public init(restart: String, viaBootloader: String, refuseOlder: String, resetTimeout: String, mode: String) {
        self.restart = restart
        self.viaBootloader = viaBootloader
        self.refuseOlder = refuseOlder
        self.resetTimeout = resetTimeout
        self.mode = mode
    }

    /// The settings named as the library's properties: `` `restart` ``, `` `viaBootloader` ``…
    public static let library = UpgradeSettingNames(
        restart: "`restart`", viaBootloader: "`viaBootloader`", refuseOlder: "`refuseOlder`", resetTimeout: "`resetTimeout`", mode: "`mode`")

    /// One value of the mode setting: `` `mode` confirm-only ``.
    public func mode(_ value: UpgradeMode) -> String { "\(mode) \(value.rawValue)" }
}
