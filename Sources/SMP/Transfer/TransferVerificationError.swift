/// Why a transfer could not end verified.
public enum TransferVerificationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The device answered the first chunk of an upload that starts at offset 0 with `offset`,
    /// beyond that chunk's end, though nothing asked it to resume: it continued an upload it still
    /// held (Zephyr's fs_mgmt keeps an open file's offset when a new upload of it starts at 0).
    case staleUpload(offset: UInt64, firstChunkEnd: UInt64)
    /// The device's `type` hash of `what` (`length` bytes) still differs from the local one after
    /// `attempts` transfers, the last of them from offset 0.
    case mismatch(what: String, type: String, device: [UInt8], local: [UInt8], length: UInt64, attempts: Int)
    /// The device's hash of an uploaded image (its `match`) was false after `attempts` uploads.
    case imageMismatch(attempts: Int)
    /// MCUboot's serial recovery wrote `attempts` uploads of an image but does not list it in the
    /// primary slot: the image does not validate there (it lists only images that do).
    case recoveryRefused(attempts: Int)
    /// The device hashed with a type this side cannot compute.
    case unknownHashType(String)
    /// The device lists only hash types this side cannot compute.
    case noUsableHashType([String])
    /// An empty file was put, but the device kept the `size` bytes `path` held: Zephyr's fs_mgmt
    /// truncates a file only when the first chunk carries data.
    case notEmptied(path: String, size: UInt64)

    public var description: String {
        switch self {
        case .staleUpload(let offset, let end):
            return "the device answered the first chunk (offset 0 to \(end)) with offset \(offset): it still held an earlier upload open"
        case .mismatch(let what, let type, let device, let local, let length, let attempts):
            return "verification failed after \(attempts) transfer\(attempts == 1 ? "" : "s"): the device's \(type) of \(what) is "
                + "\(Hex.string(device)), the local file's (\(length) bytes) is \(Hex.string(local))"
        case .imageMismatch(let attempts):
            return "verification failed after \(attempts) upload\(attempts == 1 ? "" : "s"): the device's hash of the uploaded image does not match the file"
        case .recoveryRefused(let attempts):
            return "MCUboot's serial recovery wrote the image \(attempts == 1 ? "once" : "\(attempts) times") but does not list it in the primary slot: "
                + "it does not accept the image"
        case .unknownHashType(let type):
            return "the device answered a \(type) hash, which this library cannot compute"
        case .noUsableHashType(let types):
            return "the device offers no hash type this library can compute (it lists: \(types.joined(separator: ", ")))"
        case .notEmptied(let path, let size):
            return "the device kept the \(size) bytes of \(path): it does not empty a file when it receives an empty one "
                + "(Zephyr's fs_mgmt truncates only when the first chunk carries data)"
        }
    }

    /// What to try.
    public var hint: String? {
        switch self {
        case .staleUpload: "close the device's open file (FileClose) and run the command again"
        case .mismatch, .imageMismatch: "the transfer was repeated from offset 0 and still differs: check the device's flash and file system (erase it) or the link, or try another device"
        case .recoveryRefused:
            "the primary slot holds no bootable image now (unless another slot does, a reset leaves the device in the recovery); "
                + "the usual causes are a signature by a key the bootloader does not hold, or a RAM-load image whose load address "
                + "lies outside the RAM the bootloader loads into: sign the image again (imgtool sign: --key, --load-addr) and upload that"
        case .notEmptied(let path, _):
            "delete \(path) on the device first (fs_mgmt has no delete command: use the device's shell or application), "
                + "then put the empty file again"
        case .unknownHashType, .noUsableHashType: nil
        }
    }
}
