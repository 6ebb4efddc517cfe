/// Command IDs of the image management group (1).
public enum ImageCommandID {
    /// Image state: read lists the slots, write marks an image for test or confirms it.
    public static let state: UInt8 = 0
    /// Image upload (one chunk per request).
    public static let upload: UInt8 = 1
    /// Slot erase.
    public static let erase: UInt8 = 5
    /// Slot information.
    public static let slotInfo: UInt8 = 6
}
