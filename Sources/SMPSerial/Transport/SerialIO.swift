#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import SMP
import Synchronization

/// Reads an open serial port on a thread of its own and writes to it in order.
///
/// Not a SwiftNIO pipe channel: NIO asserts (in debug builds) that a descriptor reporting a
/// hang-up still has data or an end-of-file to read, and a tty that hangs up (the device reset
/// or was unplugged) does not promise that. Here every way a port can end is handled: data,
/// end of file, EIO/ENXIO, and a hang-up with nothing to read all mean "the device went away".
final class SerialIO: Sendable {
    private let descriptor: Int32
    private let wakeup: WakeupPipe
    private let writer = DispatchQueue(label: "smp.serial.write")
    private let stopped = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)
    /// When recent lines went out; used on the writer's queue only.
    private let pacer = Mutex(LinePacer())

    /// Starts reading `stream`; `received` gets the bytes, `ended` is called once when the
    /// port fails or ends (not when ``stop()`` ends the reading). The stream stays the caller's.
    init(
        stream: any SerialByteStream, path: String, received: @escaping @Sendable ([UInt8]) -> Void,
        ended: @escaping @Sendable (_ detail: String) -> Void
    ) throws(SMPTransportError) {
        let descriptor = stream.descriptor
        self.descriptor = descriptor
        guard let wakeup = WakeupPipe() else {
            throw SMPTransportError(.io, "serial:\(path): cannot start reading the port: could not create a pipe: \(errorText(errno))")
        }
        self.wakeup = wakeup
        let reader = Reader(stream: stream, wakeup: wakeup, received: received)
        // A queue of its own: the reader blocks in poll(), which must not tie up Swift's pool.
        // It holds `self` until it ends, which ``stop()`` or the port's end brings about.
        DispatchQueue(label: "smp.serial.read").async { [self] in
            let detail = reader.run()
            if !stopping.load(ordering: .acquiring) { ended(detail) }
            stopped.signal()
        }
    }

    /// Writes `lines` in order, all of each, keeping within `pacing` (see ``LinePacing``) and
    /// waiting while the port's output buffer is full (flow control), at most `timeout` without
    /// progress. After ``stop()`` it gives up at once, and writes still queued are not started:
    /// closing never waits for a device that takes no more bytes.
    func write(_ lines: [[UInt8]], pacing: LinePacing, timeout: Duration = .seconds(10)) async throws(SerialIOFailure) {
        let result: Result<Void, SerialIOFailure> = await withCheckedContinuation { continuation in
            writer.async { [self] in
                continuation.resume(returning: writePaced(lines, pacing: pacing, stallTimeout: timeout))
            }
        }
        try result.get()
    }

    /// On the writer's queue: unpaced lines go out in one write; paced ones one at a time, with
    /// the pauses the pacer asks for (interrupted by ``stop()``).
    private func writePaced(_ lines: [[UInt8]], pacing: LinePacing, stallTimeout: Duration) -> Result<Void, SerialIOFailure> {
        if pacing.isUnpaced || lines.count == 1 && pacer.withLock({ $0.delay(before: .now, pacing: pacing) == .zero }) {
            let result = writeAll(lines.count == 1 ? lines[0] : lines.flatMap { $0 }, stallTimeout: stallTimeout)
            let now = ContinuousClock.now
            pacer.withLock { pacer in for _ in lines { pacer.record(now, pacing: pacing) } }
            return result
        }
        for line in lines {
            let delay = pacer.withLock { $0.delay(before: .now, pacing: pacing) }
            if delay > .zero, !pause(for: delay) { return .failure(SerialIOFailure(detail: "the port was closed")) }
            if case .failure(let failure) = writeAll(line, stallTimeout: stallTimeout) { return .failure(failure) }
            let now = ContinuousClock.now
            pacer.withLock { $0.record(now, pacing: pacing) }
        }
        return .success(())
    }

    /// Waits `delay` on the wake-up pipe; false when ``stop()`` ended the wait.
    private func pause(for delay: Duration) -> Bool {
        var waiting = pollfd(fd: wakeup.readEnd, events: Int16(POLLIN), revents: 0)
        let (seconds, attoseconds) = delay.components
        let milliseconds = Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
        var ready: Int32
        repeat { ready = poll(&waiting, 1, milliseconds) } while ready < 0 && errno == EINTR
        return ready == 0 && !stopping.load(ordering: .acquiring)
    }

    /// Stops reading and waits until the reader has let go of the descriptor; a write in progress
    /// is abandoned. Idempotent.
    func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wakeup.signal()
        stopped.wait()
        writer.sync {}
    }

    /// Writes on the writer's queue; polls the wake-up pipe too, so that ``stop()`` ends the wait.
    private func writeAll(_ bytes: [UInt8], stallTimeout: Duration) -> Result<Void, SerialIOFailure> {
        var offset = 0
        let milliseconds = Int32(clamping: stallTimeout.components.seconds * 1000)
        while offset < bytes.count {
            if stopping.load(ordering: .acquiring) { return .failure(SerialIOFailure(detail: "the port was closed")) }
            let written = bytes.withUnsafeBytes { buffer in
                Glibc.write(descriptor, buffer.baseAddress.map { $0 + offset }, bytes.count - offset)
            }
            if written > 0 {
                offset += written
                continue
            }
            let code = errno
            if written < 0 && code == EINTR { continue }
            guard written < 0, code == EAGAIN || code == EWOULDBLOCK else {
                return .failure(SerialIOFailure(detail: "writing failed: \(errorText(code))"))
            }
            var waiting = [
                pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0),
                pollfd(fd: wakeup.readEnd, events: Int16(POLLIN), revents: 0),
            ]
            if poll(&waiting, 2, milliseconds) == 0 {
                return .failure(SerialIOFailure(
                    detail: "the port accepted no data for \(stallTimeout) (hardware flow control holding CTS low?)"))
            }
        }
        return .success(())
    }
}

/// A write that did not complete, and why.
struct SerialIOFailure: Error, Sendable {
    var detail: String
}

/// The reading loop: poll the port and the wake-up pipe, read what is there, stop on any end.
private struct Reader: Sendable {
    let stream: any SerialByteStream
    var descriptor: Int32 { stream.descriptor }
    let wakeup: WakeupPipe
    let received: @Sendable ([UInt8]) -> Void

    /// Reads until the port ends or the wake-up pipe is signalled; returns why it ended.
    func run() -> String {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            var descriptors = [
                pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakeup.readEnd, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&descriptors, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return "waiting for data failed: \(errorText(errno))"
            }
            if descriptors[1].revents != 0 { return "stopped" }
            let events = descriptors[0].revents
            guard events != 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                stream.readCompleted()
                received(Array(buffer[0..<count]))
                continue
            }
            if count == 0 { return "end of file" }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK {
                // Nothing to read: fine after POLLIN, but a hang-up with nothing left means the end.
                if events & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return "the port hung up" }
                continue
            }
            return errorText(code)
        }
    }
}
