import DescriptorIO
import SMP
import Synchronization

/// Reads an open serial link (a tty, or a TCP stream to a serial server) and writes to it in
/// order, through a ``DescriptorChannel`` that owns the stream's descriptor from here on.
///
/// Every way a port can end means "the device went away": end of file, EIO/ENXIO, and a hang-up
/// with nothing to read (a tty promises no more when its device resets or is unplugged).
final class SerialIO: Sendable {
    private let channel: DescriptorChannel
    private let stream: any SerialByteStream
    /// When recent lines went out, across writes.
    private let pacer = SharedLinePacer()

    /// Starts reading `stream`; `received` gets the bytes, `ended` is called once when the
    /// port fails or ends (not when ``stop()`` ends the reading). The stream's descriptor is the
    /// channel's from now on: it is closed when the link ends or stops (unsent output dropped,
    /// the exclusive hold released first).
    init(
        stream: any SerialByteStream, path: String, received: @escaping @Sendable ([UInt8]) -> Void,
        ended: @escaping @Sendable (_ detail: String) -> Void
    ) throws(SMPTransportError) {
        do {
            channel = try DescriptorChannel(
                owning: stream.descriptor,
                afterRead: { _ in stream.readCompleted() },
                closing: { _ in
                    // Unsent bytes belong to requests nobody awaits any more; sent anyway, they
                    // would hold up the next session, and on a stuck line (CTS low) close() would
                    // wait for the driver's closing wait.
                    stream.discardUnsentOutput()
                    stream.releaseExclusivity()
                })
        } catch {
            throw SMPTransportError(.io, "serial:\(path): cannot start reading the port: \(error.detail)")
        }
        self.stream = stream
        Task { [channel] in
            do {
                for try await chunk in channel.reads {
                    let data = stream.incoming(chunk.bytes)
                    if !data.isEmpty { received(data) }
                }
            } catch let end as DescriptorChannel.End {
                ended(Self.detail(of: end))
            } catch {
                ended("\(error)")
            }
        }
    }

    /// Writes `lines` in order, all of each, keeping within `pacing` (see ``LinePacing``) and
    /// waiting while the port's output buffer is full (flow control), at most `timeout` without
    /// progress. Unpaced lines go out in one write. After ``stop()`` it gives up at once, and
    /// writes still queued are not started: closing never waits for a device that takes no more bytes.
    func write(_ lines: [[UInt8]], pacing: LinePacing, timeout: Duration = .seconds(10)) async throws(SerialIOFailure) {
        let segments = (pacing.isUnpaced && lines.count > 1 ? [lines.flatMap { $0 }] : lines).map(stream.outgoing)
        let paced = PacedLines(shared: pacer, pacing: pacing, linesPerSegment: segments.count == lines.count ? 1 : lines.count)
        do {
            try await channel.write(segments, pacer: paced, stallTimeout: timeout)
        } catch {
            throw SerialIOFailure(detail: Self.detail(of: error, stallTimeout: timeout))
        }
    }

    /// Stops reading and writing (a write in progress is abandoned) and suspends until the
    /// descriptor is closed. Idempotent.
    func stop() async {
        channel.close()
        await channel.closed()
    }

    private static func detail(of end: DescriptorChannel.End) -> String {
        switch end {
        case .endOfFile: "end of file"
        case .hungUp: "the port hung up"
        case .readFailed(let code): errorText(code)
        case .pollFailed: "\(end)"
        }
    }

    private static func detail(of failure: DescriptorChannel.WriteFailure, stallTimeout: Duration) -> String {
        switch failure {
        case .closed: "the port was closed"
        case .ended(let end): detail(of: end)
        case .stalled: "the port accepted no data for \(stallTimeout) (hardware flow control holding CTS low?)"
        case .failed(let code): "writing failed: \(errorText(code))"
        }
    }
}

/// A write that did not complete, and why.
struct SerialIOFailure: Error, Sendable {
    var detail: String
}

/// The ``LinePacer`` of one link, shared by its writes.
private final class SharedLinePacer: Sendable {
    let pacer = Mutex(LinePacer())
}

/// Paces one write's segments: each is `linesPerSegment` lines (several when unpaced lines go
/// out together).
private struct PacedLines: WritePacer {
    let shared: SharedLinePacer
    let pacing: LinePacing
    let linesPerSegment: Int

    func delay(before now: ContinuousClock.Instant) -> Duration {
        shared.pacer.withLock { $0.delay(before: now, pacing: pacing) }
    }

    func segmentWritten(at now: ContinuousClock.Instant) {
        shared.pacer.withLock { pacer in
            for _ in 0..<linesPerSegment { pacer.record(now, pacing: pacing) }
        }
    }
}
