/// The receive line buffers of Zephyr's UART and shell SMP transports
/// (`CONFIG_UART_MCUMGR_RX_BUF_COUNT` buffers of `CONFIG_UART_MCUMGR_RX_BUF_SIZE` bytes; the shell's
/// `CONFIG_MCUMGR_TRANSPORT_SHELL_RX_BUF_COUNT`), which decide which SMP lines a device receives.
///
/// An SMP line begins at an 0x06 0x09 or 0x04 0x14 marker (anywhere in the stream) and ends at
/// `\n`. It is received into a free buffer; a line that starts while every buffer is taken, or
/// that grows longer than a buffer, is dropped whole (ignored up to its `\n`). A buffer is held
/// while its line arrives and for ``drain`` after the line's end, the time the device's work
/// queue takes to process it. Bytes outside SMP lines are console or shell input.
struct SerialLineBuffers: Sendable {
    /// What the receiver made of some input, in order.
    enum Event: Sendable, Equatable {
        /// Bytes outside SMP lines (console text, shell input).
        case text([UInt8])
        /// A complete SMP line, marker and `\n` included, received into a buffer.
        case line([UInt8])
        /// An SMP line that found no free buffer (reported when it starts).
        case overrun
        /// An SMP line longer than a buffer (reported when it outgrows it).
        case tooLong
    }

    /// How many buffers there are.
    let count: Int
    /// The longest line a buffer holds, markers and `\n` included.
    let size: Int
    /// How long a buffer stays taken after its line ended.
    let drain: Duration

    /// When each buffer is free again; nil while the current line fills it.
    private var freeAt: [ContinuousClock.Instant?]
    private var state = State.text
    /// The SMP line being received (into buffer `current`).
    private var line: [UInt8] = []
    private var current: Int?
    /// Text since the last event.
    private var text: [UInt8] = []

    private enum State: Sendable {
        /// Outside SMP lines.
        case text
        /// After 0x06 or 0x04 outside a line: a marker if the right byte follows.
        case markerByte(UInt8)
        /// In an SMP line that has a buffer.
        case line
        /// In a dropped SMP line, until its `\n`.
        case ignoring
    }

    /// `count` buffers (at least 1) of `size` bytes, each taken for `drain` after its line.
    init(count: Int, size: Int, drain: Duration) {
        self.count = max(1, count)
        self.size = max(3, size)
        self.drain = max(.zero, drain)
        freeAt = Array(repeating: ContinuousClock.Instant?.some(.now), count: self.count)
    }

    /// Receives every SMP line, however long or close together: a buffer freed at once at the
    /// end of its line is always free for the next.
    static let unlimited = SerialLineBuffers(count: 1, size: .max, drain: .zero)

    /// Receives `bytes` that arrived at `now`.
    mutating func receive(_ bytes: [UInt8], at now: ContinuousClock.Instant) -> [Event] {
        var events: [Event] = []
        for byte in bytes { receive(byte, at: now, into: &events) }
        flushText(into: &events)
        return events
    }

    /// Forgets a partial line (the host closed the link); buffers being drained stay taken.
    mutating func reset(at now: ContinuousClock.Instant) {
        if let current { freeAt[current] = now }
        current = nil
        line = []
        text = []
        state = .text
    }

    private mutating func receive(_ byte: UInt8, at now: ContinuousClock.Instant, into events: inout [Event]) {
        switch state {
        case .text:
            if byte == 0x06 || byte == 0x04 {
                state = .markerByte(byte)
            } else {
                text.append(byte)
            }
        case .markerByte(let first):
            if (first, byte) == (0x06, 0x09) || (first, byte) == (0x04, 0x14) {
                flushText(into: &events)
                startLine(with: [first, byte], at: now, into: &events)
            } else {
                text.append(first)
                state = .text
                receive(byte, at: now, into: &events)
            }
        case .line:
            line.append(byte)
            if line.count > size {
                events.append(.tooLong)
                release(at: now)
                state = byte == 0x0A ? .text : .ignoring
            } else if byte == 0x0A {
                events.append(.line(line))
                release(at: now + drain)
                state = .text
            }
        case .ignoring:
            if byte == 0x0A { state = .text }
        }
    }

    private mutating func startLine(with marker: [UInt8], at now: ContinuousClock.Instant, into events: inout [Event]) {
        guard let free = freeAt.firstIndex(where: { $0.map { $0 <= now } ?? false }) else {
            events.append(.overrun)
            state = .ignoring
            return
        }
        freeAt[free] = nil
        current = free
        line = marker
        state = .line
    }

    private mutating func release(at instant: ContinuousClock.Instant) {
        if let current { freeAt[current] = instant }
        current = nil
        line = []
    }

    private mutating func flushText(into events: inout [Event]) {
        guard !text.isEmpty else { return }
        events.append(.text(text))
        text = []
    }
}
