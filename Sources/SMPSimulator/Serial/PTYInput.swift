import DescriptorIO

/// A chunk the host wrote, with the channel it came on (to ask for the next one) and when it was
/// read.
///
/// The master is read one chunk at a time, when the server asks
/// (``DescriptorChannel/ReadMode/onRequest``), so that a paced device takes bytes from the kernel
/// no faster than its UART would and the host feels the back-pressure. An unpaced line with
/// receive line buffers is read continuously instead, so that each chunk is stamped with the
/// time it arrived even while the server is busy: the line buffers judge bursts by it.
struct PTYInput: Sendable {
    var bytes: [UInt8]
    var channel: DescriptorChannel
    var receivedAt: ContinuousClock.Instant
}
