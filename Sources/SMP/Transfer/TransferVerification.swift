/// When a file transfer checks its result with the device's hash (fs hash: sha256, else crc32).
public enum TransferVerification: Sendable, Hashable {
    /// After every transfer.
    case always
    /// Only when the transfer continued a partial one or the device answered out of order
    /// (rewound, lost its state, named an offset beyond what was sent): the default. An
    /// unbroken transfer from offset 0 is covered by the device's acknowledgements.
    case afterResume
}
