/// Command IDs of the SUIT group (66, nRF Connect SDK; docs/protocol/suit.md §14).
public enum SUITCommandID {
    /// Manifest list (read): the roles of the installed manifests.
    public static let manifestList: UInt8 = 0
    /// Manifest state (read): what one role's installed manifest reports.
    public static let manifestState: UInt8 = 1
    /// Envelope upload (write), and with `off 0 len 0` the trigger of a deferred install.
    public static let envelopeUpload: UInt8 = 2
    /// Missing image state (read): the resource the device asks for, if any.
    public static let poll: UInt8 = 3
    /// Missing image upload (write): one chunk of a requested resource.
    public static let resourceUpload: UInt8 = 4
    /// Cache raw upload (write): one chunk of a DFU cache partition's image.
    public static let cacheUpload: UInt8 = 5
    /// Cleanup (write): erase the DFU partition and the caches.
    public static let cleanup: UInt8 = 6
}
