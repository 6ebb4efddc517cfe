import SMP

/// How ``FirmwareUpgrade`` runs.
public struct UpgradeOptions: Sendable, Hashable {
    /// What happens after the upload.
    public var mode: UpgradeMode
    /// Erase the application's settings (Zephyr basic group) after the upload, before the reset.
    public var eraseAppSettings: Bool
    /// Window, alignment and restart of each image upload.
    public var upload: ChunkedUploadOptions
    /// Send `upgrade: true` with each upload: the device refuses an image that is not newer.
    public var refuseOlder: Bool
    /// How long MCUboot is expected to need after the reset before the device can answer
    /// (swap time); polling starts after it.
    public var swapTime: Duration
    /// How long to wait in all for the device to answer again after the reset.
    public var resetTimeout: Duration
    /// How long one poll (an echo) waits for its answer while the device restarts.
    public var pollTimeout: Duration
    /// How long the old firmware may keep answering after it acknowledged the reset (Zephyr
    /// resets 250 ms after answering). Polling waits for silence within this time before it
    /// takes an answer as the new firmware's.
    public var resetGrace: Duration
    /// Install through MCUboot's serial recovery: a running application is first reset into the
    /// bootloader (boot mode 1), and the recovery writes the primary slot. A device already in
    /// serial recovery is upgraded through it without this option.
    public var viaBootloader: Bool
    /// SUIT: how often the device is asked which resource it wants (Nordic's clients: 150 ms).
    public var suitPollInterval: Duration
    /// SUIT: how long the device may keep asking for nothing before the upgrade takes processing
    /// as finished (Nordic's clients: 5 s).
    public var suitPollWindow: Duration
    /// How the front end spells these settings where a note or hint points at one.
    public var settingNames: UpgradeSettingNames

    /// Creates options.
    public init(
        mode: UpgradeMode = .testAndConfirm, eraseAppSettings: Bool = false, upload: ChunkedUploadOptions = ChunkedUploadOptions(),
        refuseOlder: Bool = false, swapTime: Duration = .zero, resetTimeout: Duration = .seconds(120),
        pollTimeout: Duration = .milliseconds(500), resetGrace: Duration = .seconds(2),
        suitPollInterval: Duration = .milliseconds(150), suitPollWindow: Duration = .seconds(5), viaBootloader: Bool = false,
        settingNames: UpgradeSettingNames = .library
    ) {
        self.mode = mode
        self.eraseAppSettings = eraseAppSettings
        self.upload = upload
        self.refuseOlder = refuseOlder
        self.swapTime = swapTime
        self.resetTimeout = resetTimeout
        self.pollTimeout = pollTimeout
        self.resetGrace = resetGrace
        self.suitPollInterval = suitPollInterval
        self.suitPollWindow = suitPollWindow
        self.viaBootloader = viaBootloader
        self.settingNames = settingNames
    }
}
