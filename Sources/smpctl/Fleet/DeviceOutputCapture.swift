import Synchronization

/// What one device's command wrote, kept apart while many devices run at once
/// (``StandardStream/capture``): its result text or JSON on standard output, its errors and notes
/// on standard error.
final class DeviceOutputCapture: Sendable {
    private let streams = Mutex<(output: [UInt8], error: [UInt8])>(([], []))

    /// Appends bytes written to `stream`.
    func append(_ bytes: UnsafeRawBufferPointer, to stream: StandardStream) {
        streams.withLock { streams in
            switch stream {
            case .standardOutput: streams.output.append(contentsOf: bytes)
            case .standardError: streams.error.append(contentsOf: bytes)
            }
        }
    }

    /// The text written to standard output.
    var output: String { streams.withLock { String(decoding: $0.output, as: UTF8.self) } }

    /// The text written to standard error.
    var error: String { streams.withLock { String(decoding: $0.error, as: UTF8.self) } }
}
