#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The one owner of an open, non-blocking descriptor (a tty, a pseudo-terminal master, a TCP or
/// Bluetooth socket): one ``PollingThread`` reads it and writes to it, and closes it.
///
/// - Reads arrive on ``reads``, an async sequence of chunks (a datagram socket: one datagram
///   each), continuously or one at a time on request (``ReadMode``), which gives a reader
///   back-pressure. The sequence finishes when ``close()`` is called, and throws ``End`` when the
///   descriptor ends by itself: end of file, an error (EIO from a tty whose device went away),
///   or a hang-up with nothing left to read.
/// - Writes go out in the order they were asked for, each a list of segments written in full
///   (a datagram socket: one datagram each), optionally paced (``WritePacer``) and given up
///   when the descriptor takes nothing for a while (hardware flow control holding a line).
/// - ``close()`` never blocks: the thread finishes the sequence, fails unfinished writes, runs
///   the `closing` hook and closes the descriptor; ``closed()`` suspends until it has. A
///   descriptor that ended by itself stays open (its thread parked) until ``close()``: the
///   owner decides when it is released.
///
/// Not a SwiftNIO pipe channel: NIO asserts that a descriptor reporting a hang-up still has data
/// or an end-of-file to read, which a tty that hangs up (a device reset or unplugged, a host that
/// closed a pseudo-terminal's slave) does not promise.
///
/// ```swift
/// let channel = try DescriptorChannel(owning: descriptor)
/// Task { for try await chunk in channel.reads { handle(chunk.bytes) } }
/// try await channel.write([request])
/// channel.close()
/// ```
public final class DescriptorChannel: Sendable {
    /// Bytes read, and when the read completed.
    public struct Chunk: Sendable {
        /// What one read returned: never empty, but for an empty datagram on a datagram socket.
        public var bytes: [UInt8]
        /// When it was read: the time the bytes arrived, however late the consumer looks.
        public var time: ContinuousClock.Instant
    }

    /// When the descriptor is read.
    public enum ReadMode: Sendable {
        /// Whenever it has data.
        case continuous
        /// One read per ``requestRead()``: the peer's writes wait while nobody asks.
        case onRequest
        /// Never (a write-only socket); a hang-up still ends the channel.
        case never
    }

    /// How the descriptor ended by itself; ``reads`` throws it.
    public enum End: Error, Sendable, Equatable {
        /// A read returned 0.
        case endOfFile
        /// The descriptor reported a hang-up or an error, with nothing to read.
        case hungUp
        /// A read failed with this errno (EIO: a tty whose device went away).
        case readFailed(Int32)
        /// `poll()` failed with this errno.
        case pollFailed(Int32)
    }

    /// A write that did not complete.
    public enum WriteFailure: Error, Sendable, Equatable {
        /// ``close()`` was called before it was written.
        case closed
        /// The descriptor had ended (``End``).
        case ended(End)
        /// The descriptor took nothing for this long.
        case stalled(Duration)
        /// `write`/`send` failed with this errno.
        case failed(Int32)
    }

    fileprivate struct Write {
        var segments: [[UInt8]]
        var pacer: (any WritePacer)?
        var stallTimeout: Duration?
        var done: CheckedContinuation<Result<Void, WriteFailure>, Never>
    }

    private struct State {
        var writes: [Write] = []
        var requestedReads = 0
        /// Set once the thread has ended the channel; later writes fail with it.
        var ended: WriteFailure?
    }

    /// The chunks read; see ``DescriptorChannel``.
    public let reads: AsyncThrowingStream<Chunk, any Error>
    private let continuation: AsyncThrowingStream<Chunk, any Error>.Continuation
    private let state = Mutex(State())
    private let thread: Mutex<PollingThread?> = Mutex(nil)

    /// Takes ownership of `descriptor` (made non-blocking) and starts its thread.
    ///
    /// - Parameters:
    ///   - descriptor: the open file descriptor; the channel closes it when it ends.
    ///   - readMode: when to read (see ``ReadMode``).
    ///   - readSize: the most bytes one read takes.
    ///   - afterRead: called on the thread after each read that returned data (a TCP stream asks
    ///     for an immediate acknowledgement there).
    ///   - closing: called on the thread just before the descriptor is closed, however the
    ///     channel ends (a tty drops unsent output and its exclusive hold there).
    /// - Throws: ``PollingThreadError`` when no thread could be started; the descriptor is then
    ///   closed.
    public init(
        owning descriptor: Int32, readMode: ReadMode = .continuous, readSize: Int = 65_536,
        afterRead: (@Sendable (Int32) -> Void)? = nil, closing: (@Sendable (Int32) -> Void)? = nil
    ) throws(PollingThreadError) {
        (reads, continuation) = AsyncThrowingStream.makeStream()
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        var type: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        let isDatagram = getsockopt(descriptor, SOL_SOCKET, SO_TYPE, &type, &length) == 0 && type == Int32(SOCK_DGRAM.rawValue)
        let loop = ChannelLoop(
            descriptor: descriptor, readMode: readMode, readSize: max(1, readSize), isDatagram: isDatagram, afterRead: afterRead)
        do {
            let thread = try PollingThread { [self] thread in
                let end = loop.run(on: thread, channel: self)
                finish(end, descriptor: descriptor, closing: closing, on: thread)
            }
            self.thread.withLock { $0 = thread }
        } catch {
            Glibc.close(descriptor)
            throw error
        }
    }

    /// Asks for one more read (``ReadMode/onRequest``); requests add up.
    public func requestRead() {
        state.withLock { $0.requestedReads += 1 }
        thread.withLock { $0 }?.wake()
    }

    /// Writes `segments` in full, in order, after every earlier write: each segment with as many
    /// `write` calls as the descriptor needs (a datagram socket: one datagram).
    ///
    /// - Parameters:
    ///   - segments: the bytes to write, each segment written whole before the next.
    ///   - pacer: asked before each segment how long to wait, and told when it went out.
    ///   - stallTimeout: give up when the descriptor takes nothing for this long; nil: wait.
    public func write(_ segments: [[UInt8]], pacer: (any WritePacer)? = nil, stallTimeout: Duration? = nil) async throws(WriteFailure) {
        let result: Result<Void, WriteFailure> = await withCheckedContinuation { done in
            let refused: WriteFailure? = state.withLock { state in
                if let ended = state.ended { return ended }
                state.writes.append(Write(segments: segments, pacer: pacer, stallTimeout: stallTimeout, done: done))
                return nil
            }
            if let refused { done.resume(returning: .failure(refused)) } else { thread.withLock { $0 }?.wake() }
        }
        try result.get()
    }

    /// Ends the channel: ``reads`` finishes, unfinished writes fail with ``WriteFailure/closed``,
    /// and the thread closes the descriptor. Returns at once; idempotent.
    public func close() {
        thread.withLock { $0 }?.stop()
    }

    /// Suspends until the descriptor is closed (after ``close()`` or the channel's own end).
    public func closed() async {
        await thread.withLock { $0 }?.finished()
    }

    // MARK: On the thread

    /// The next write to work on.
    fileprivate func takeWrite() -> Write? {
        state.withLock { state in state.writes.isEmpty ? nil : state.writes.removeFirst() }
    }

    fileprivate var readRequested: Bool { state.withLock { $0.requestedReads > 0 } }

    fileprivate func consumeReadRequest() {
        state.withLock { $0.requestedReads = max(0, $0.requestedReads - 1) }
    }

    fileprivate func deliver(_ chunk: Chunk) {
        continuation.yield(chunk)
    }

    fileprivate func complete(_ write: Write, _ result: Result<Void, WriteFailure>) {
        write.done.resume(returning: result)
    }

    /// Ends the channel on its thread: no more writes, the sequence finished, and once the owner
    /// has called ``close()``, the descriptor closed.
    private func finish(_ end: End?, descriptor: Int32, closing: (@Sendable (Int32) -> Void)?, on thread: PollingThread) {
        let failure = end.map(WriteFailure.ended) ?? .closed
        let abandoned = state.withLock { state in
            state.ended = failure
            defer { state.writes = [] }
            return state.writes
        }
        for write in abandoned { write.done.resume(returning: .failure(failure)) }
        if let end {
            continuation.finish(throwing: end)
            // The descriptor stays open until its owner lets go of it: a tty that hung up keeps
            // its place (its pseudo-terminal number, say) until the transport has moved on.
            while !thread.isStopping {
                var nothing: [pollfd] = []
                _ = thread.wait(&nothing, timeout: nil)
            }
        }
        closing?(descriptor)
        Glibc.close(descriptor)
        if end == nil { continuation.finish() }
    }
}

/// Paces the segments of a ``DescriptorChannel`` write (a serial line's console lines).
public protocol WritePacer: Sendable {
    /// How long to wait, from `now`, before the next segment may go out.
    func delay(before now: ContinuousClock.Instant) -> Duration
    /// A segment went out at `now`.
    func segmentWritten(at now: ContinuousClock.Instant)
}

extension DescriptorChannel.End: CustomStringConvertible {
    /// A short sentence: "end of file", "the descriptor hung up", the error's text.
    public var description: String {
        switch self {
        case .endOfFile: "end of file"
        case .hungUp: "hung up"
        case .readFailed(let code): systemErrorText(code)
        case .pollFailed(let code): "waiting for data failed: \(systemErrorText(code))"
        }
    }
}

/// The loop a ``DescriptorChannel``'s thread runs; its variables are the thread's alone.
private struct ChannelLoop: Sendable {
    let descriptor: Int32
    let readMode: DescriptorChannel.ReadMode
    let readSize: Int
    /// A datagram socket: a read of 0 bytes is an empty datagram, not the end of the stream.
    let isDatagram: Bool
    let afterRead: (@Sendable (Int32) -> Void)?

    /// The write being worked on.
    private struct Progress {
        var segment = 0
        var offset = 0
        /// Whether the pacer has let the current segment go.
        var released = false
        var lastProgress = ContinuousClock.now
    }

    /// Reads and writes until the channel is closed (nil) or the descriptor ends.
    func run(on thread: PollingThread, channel: DescriptorChannel) -> DescriptorChannel.End? {
        var buffer = [UInt8](repeating: 0, count: readSize)
        var current: (write: DescriptorChannel.Write, progress: Progress)?
        var usesSend = true
        while !thread.isStopping {
            // Writes: as far as the descriptor and the pacer allow.
            var timeout: Duration?
            var wantsOutput = false
            writing: while true {
                if current == nil {
                    guard let write = channel.takeWrite() else { break writing }
                    current = (write, Progress())
                }
                guard case (let write, var progress)? = current else { break writing }
                if progress.segment == write.segments.count {
                    channel.complete(write, .success(()))
                    current = nil
                    continue
                }
                let now = ContinuousClock.now
                if !progress.released {
                    if let delay = write.pacer?.delay(before: now), delay > .zero {
                        timeout = delay
                        break writing
                    }
                    // The stall timer runs from here: a pacing pause is not a stall.
                    progress.released = true
                    progress.lastProgress = now
                }
                let segment = write.segments[progress.segment]
                switch send(segment, from: progress.offset, usesSend: &usesSend) {
                case .success(let count):
                    progress.offset += count
                    progress.lastProgress = now
                    if progress.offset >= segment.count {
                        write.pacer?.segmentWritten(at: .now)
                        progress.segment += 1
                        progress.offset = 0
                        progress.released = false
                    }
                    current = (write, progress)
                case .failure(.wouldBlock):
                    wantsOutput = true
                    if let stallTimeout = write.stallTimeout {
                        let left = progress.lastProgress + stallTimeout - now
                        guard left > .zero else {
                            channel.complete(write, .failure(.stalled(stallTimeout)))
                            current = nil
                            continue
                        }
                        timeout = left
                    }
                    current = (write, progress)
                    break writing
                case .failure(.failed(let code)):
                    channel.complete(write, .failure(.failed(code)))
                    current = nil
                }
            }
            // Reads, and waiting.
            let wantsInput = switch readMode {
            case .continuous: true
            case .onRequest: channel.readRequested
            case .never: false
            }
            var descriptors = [
                pollfd(fd: descriptor, events: (wantsInput ? Int16(POLLIN) : 0) | (wantsOutput ? Int16(POLLOUT) : 0), revents: 0)
            ]
            switch thread.wait(&descriptors, timeout: timeout) {
            case .woken, .timedOut:
                continue
            case .failed(let code):
                if let current { channel.complete(current.write, .failure(.ended(.pollFailed(code)))) }
                return .pollFailed(code)
            case .ready:
                break
            }
            let events = descriptors[0].revents
            let ending = events & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
            guard wantsInput else {
                // A hang-up while nothing is to be read: the end.
                if ending { return end(.hungUp, abandoning: current, channel) }
                continue
            }
            guard events & Int16(POLLIN) != 0 || ending else { continue }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 || (count == 0 && isDatagram) {
                if readMode == .onRequest { channel.consumeReadRequest() }
                afterRead?(descriptor)
                channel.deliver(DescriptorChannel.Chunk(bytes: Array(buffer[0..<count]), time: .now))
                continue
            }
            if count == 0 { return end(.endOfFile, abandoning: current, channel) }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK {
                // Nothing to read: fine after POLLIN, but a hang-up with nothing left is the end.
                if ending { return end(.hungUp, abandoning: current, channel) }
                continue
            }
            return end(.readFailed(code), abandoning: current, channel)
        }
        if let current { channel.complete(current.write, .failure(.closed)) }
        return nil
    }

    private func end(
        _ end: DescriptorChannel.End, abandoning current: (write: DescriptorChannel.Write, progress: Progress)?, _ channel: DescriptorChannel
    ) -> DescriptorChannel.End {
        if let current { channel.complete(current.write, .failure(.ended(end))) }
        return end
    }

    private enum SendFailure: Error {
        case wouldBlock
        case failed(Int32)
    }

    /// One `send` (MSG_NOSIGNAL: a closed socket fails instead of raising SIGPIPE), or `write`
    /// on what is not a socket.
    private func send(_ bytes: [UInt8], from offset: Int, usesSend: inout Bool) -> Result<Int, SendFailure> {
        while true {
            let socketWrite = usesSend
            let written = bytes.withUnsafeBytes { buffer in
                let start = buffer.baseAddress.map { $0 + offset }
                return socketWrite
                    ? Glibc.send(descriptor, start, buffer.count - offset, Int32(MSG_NOSIGNAL))
                    : Glibc.write(descriptor, start, buffer.count - offset)
            }
            if written >= 0 { return .success(written) }
            let code = errno
            switch code {
            case EINTR: continue
            case ENOTSOCK where usesSend: usesSend = false
            case EAGAIN, EWOULDBLOCK: return .failure(.wouldBlock)
            default: return .failure(.failed(code))
            }
        }
    }
}
