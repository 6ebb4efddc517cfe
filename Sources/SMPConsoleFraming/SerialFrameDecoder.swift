/// Finds and reassembles "SMP over console" packets in a byte stream from a serial port
/// (docs/protocol/serial.md §15.1), skipping everything else the port carries.
///
/// The stream may mix SMP lines with console output: log lines, shell prompts, `\r`, half lines,
/// binary noise. An SMP line starts with 0x06 0x09 (first line of a packet) or 0x04 0x14
/// (continuation) — wherever these two bytes appear, even in the middle of console text with no
/// `\n` before them (a log line cut short by a reset) — and ends with `\n`. Each line's base64 is
/// decoded on its own, as Zephyr does: a line holds whole 4-character quanta, padding may end it.
/// The decoded bytes of a first line and its continuations form the packet
/// `total_len ‖ message ‖ CRC`; when `total_len` bytes have arrived at the end of a line, the CRC
/// is checked (residue 0) and the message delivered.
///
/// Console text between the lines of a packet does not disturb it. A packet is dropped, and
/// counted in ``statistics-swift.property``, when a line is not valid base64 (also when it is cut
/// short by anything but `\n`), `total_len` is impossible or exceeded, the CRC is wrong, a line
/// grows longer than ``maximumLineLength``, or a new first line arrives before it is complete.
///
/// Memory stays bounded whatever the input: the decoder keeps at most one packet
/// (≤ ``maximumMessageSize`` + 4 bytes) and a few counters; console text is never buffered.
/// Feeding is chunking-independent: any split of the stream gives the same messages and counts.
public struct SerialFrameDecoder: Sendable {
    /// What the decoder has seen and dropped since it was made.
    ///
    /// Every byte fed is counted once, in ``consoleBytes`` or ``lineBytes`` (a byte that might
    /// start a marker counts as console until the next byte shows otherwise).
    public struct Statistics: Sendable, Hashable {
        /// SMP messages delivered.
        public var packets: Int
        /// Bytes outside SMP lines (logs, prompts) skipped, and the rest of a line after the
        /// decoder gave up on it (an orphan continuation, a bad character, an oversize line).
        public var consoleBytes: Int
        /// Bytes of SMP lines read: markers, base64, `\r`, `\n`, whether their packet was delivered
        /// or dropped.
        public var lineBytes: Int
        /// Packets whose CRC did not match.
        public var crcErrors: Int
        /// Packets dropped because `total_len` was inconsistent (smaller than the CRC, larger than
        /// the maximum message size), missing (a first line with fewer than 2 bytes) or exceeded
        /// (more data than declared).
        public var lengthErrors: Int
        /// Packets dropped because a line was not valid base64: a character outside the alphabet
        /// (a line cut short), misplaced padding, or a partial quantum at the end of the line.
        public var base64Errors: Int
        /// 04 14 lines without a packet in progress, dropped.
        public var orphanContinuations: Int
        /// Lines longer than ``SerialFrameDecoder/maximumLineLength``: dropped with their packet,
        /// resynchronised at the next marker.
        public var oversizeLines: Int
        /// Incomplete packets given up because a new 06 09 arrived.
        public var abandonedPackets: Int

        /// All zero.
        public init() {
            packets = 0
            consoleBytes = 0
            lineBytes = 0
            crcErrors = 0
            lengthErrors = 0
            base64Errors = 0
            orphanContinuations = 0
            oversizeLines = 0
            abandonedPackets = 0
        }

        /// Packets started (by a 06 09 line) and then dropped, for whatever reason.
        public var droppedPackets: Int {
            crcErrors + lengthErrors + base64Errors + oversizeLines + abandonedPackets
        }

        /// All bytes fed so far.
        public var bytes: Int { consoleBytes + lineBytes }
    }

    /// What has been seen so far; ``reset()`` keeps it.
    public private(set) var statistics = Statistics()

    /// The largest message delivered; a packet whose `total_len` announces more is dropped as a
    /// length error without being stored.
    public let maximumMessageSize: Int

    /// The longest SMP line accepted, markers and `\n` included.
    public let maximumLineLength: Int

    /// Where in the stream the decoder is.
    private enum Mode: Sendable {
        /// Outside SMP lines.
        case console
        /// Outside SMP lines, after 0x06 (counted as console).
        case consoleAfterStartByte
        /// Outside SMP lines, after 0x04 (counted as console).
        case consoleAfterContinuationByte
        /// In an SMP line, after its marker.
        case line
        /// An SMP line was interrupted by 0x06 (counted as console): a new packet if 0x09 follows.
        case lineAfterStartByte
    }

    private var mode = Mode.console
    /// Bytes of the current SMP line so far, marker included.
    private var lineLength = 0
    /// The base64 characters of the current quantum, 6 bits each.
    private var quantum: UInt32 = 0
    /// How many characters the current quantum has (0–3 between calls).
    private var quantumFill = 0
    /// How many of them are `=`.
    private var quantumPadding = 0
    /// Whether the line's data ended with padding: only `\r` and `\n` may follow.
    private var lineClosed = false
    /// Whether a packet is being reassembled (its first line has begun).
    private var inPacket = false
    /// The decoded bytes of the packet so far: `total_len`, message, CRC.
    private var packet: [UInt8] = []
    /// `total_len` + 2 once the first two bytes are known, else -1.
    private var expectedCount = -1

    /// A decoder delivering messages of at most `maximumMessageSize` bytes from lines of at most
    /// `maximumLineLength` bytes (at least 16).
    public init(maximumMessageSize: Int = 65_535 + 8, maximumLineLength: Int = 8192) {
        self.maximumMessageSize = max(0, maximumMessageSize)
        self.maximumLineLength = max(SerialFrameEncoder.minimumLineLength, maximumLineLength)
    }

    /// Feeds received bytes (any chunking, even one byte at a time); returns the complete SMP
    /// messages (length and CRC checked and stripped), in order.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [[UInt8]] {
        var messages: [[UInt8]] = []
        let done: Void? = bytes.withContiguousStorageIfAvailable { consume($0, into: &messages) }
        if done == nil {
            Array(bytes).withUnsafeBufferPointer { consume($0, into: &messages) }
        }
        return messages
    }

    /// Bytes of memory the decoder keeps for packets (for tests of its bounds).
    var retainedCapacity: Int { packet.capacity }

    /// Discards any partial line or packet (e.g. after reopening the port). The statistics stay.
    public mutating func reset() {
        mode = .console
        dropPacket()
    }

    // MARK: - The state machine

    private mutating func consume(_ input: UnsafeBufferPointer<UInt8>, into messages: inout [[UInt8]]) {
        var index = 0
        let count = input.count
        while index < count {
            switch mode {
            case .console:
                let start = index
                while index < count {
                    let byte = input[index]
                    if byte == 0x06 || byte == 0x04 { break }
                    index += 1
                }
                if index < count {
                    mode = input[index] == 0x06 ? .consoleAfterStartByte : .consoleAfterContinuationByte
                    index += 1
                }
                statistics.consoleBytes += index - start
            case .consoleAfterStartByte:
                if input[index] == 0x09 {
                    index += 1
                    markerFound()
                    beginFirstLine()
                } else {
                    mode = .console  // the 0x06 was console output; look at this byte again
                }
            case .consoleAfterContinuationByte:
                if input[index] == 0x14 {
                    index += 1
                    markerFound()
                    beginContinuationLine()
                } else {
                    mode = .console
                }
            case .line:
                index = consumeLine(input, from: index, into: &messages)
            case .lineAfterStartByte:
                if input[index] == 0x09 {
                    index += 1
                    markerFound()
                    beginFirstLine()  // counts the interrupted packet as abandoned
                } else {
                    statistics.base64Errors += 1  // a line cut short by a stray 0x06
                    dropPacket()
                    mode = .console
                }
            }
        }
    }

    /// The byte before was the first of a marker (counted as console); this one completes it.
    private mutating func markerFound() {
        statistics.consoleBytes -= 1
        statistics.lineBytes += 2
    }

    private mutating func beginFirstLine() {
        if inPacket { statistics.abandonedPackets += 1 }
        dropPacket()
        inPacket = true
        beginLine()
    }

    private mutating func beginContinuationLine() {
        if inPacket {
            beginLine()
        } else {
            statistics.orphanContinuations += 1
            mode = .console  // the rest of the line is skipped as console text
        }
    }

    private mutating func beginLine() {
        mode = .line
        lineLength = 2
        quantum = 0
        quantumFill = 0
        quantumPadding = 0
        lineClosed = false
    }

    private mutating func dropPacket() {
        inPacket = false
        packet.removeAll(keepingCapacity: true)
        expectedCount = -1
    }

    /// Gives up on the current line and its packet; the rest of the line is console text.
    private mutating func abandonLine() {
        dropPacket()
        mode = .console
    }

    /// Reads SMP line bytes from `start`; returns the index of the first byte not consumed as part
    /// of the line (the mode tells what comes next).
    private mutating func consumeLine(
        _ input: UnsafeBufferPointer<UInt8>, from start: Int, into messages: inout [[UInt8]]
    ) -> Int {
        var index = start
        defer { statistics.lineBytes += index - start }
        return SerialBase64.decodeTable.withUnsafeBufferPointer { table in
            while index < input.count {
                guard lineLength < maximumLineLength else {
                    statistics.oversizeLines += 1
                    abandonLine()
                    return index
                }
                let byte = input[index]
                let value = table[Int(byte)]
                if value < 64 {
                    guard !lineClosed && quantumPadding == 0 else {
                        statistics.base64Errors += 1
                        abandonLine()
                        index += 1
                        return index
                    }
                    lineLength += 1
                    index += 1
                    quantum = quantum << 6 | UInt32(value)
                    quantumFill += 1
                    if quantumFill == 4 && !flushQuantum() { return index }
                    continue
                }
                switch value {
                case SerialBase64.padding:
                    lineLength += 1
                    index += 1
                    guard !lineClosed && quantumFill >= 2 else {
                        statistics.base64Errors += 1
                        abandonLine()
                        return index
                    }
                    quantum <<= 6
                    quantumFill += 1
                    quantumPadding += 1
                    if quantumFill == 4 {
                        lineClosed = true
                        if !flushQuantum() { return index }
                    }
                case SerialBase64.carriageReturn:
                    lineLength += 1
                    index += 1
                case SerialBase64.lineFeed:
                    lineLength += 1
                    index += 1
                    endLine(into: &messages)
                    return index
                case SerialBase64.startMarkerByte:
                    // Maybe a new packet's marker, maybe garbage; the next byte tells. Console
                    // until then.
                    statistics.consoleBytes += 1
                    statistics.lineBytes -= 1  // offsets the count of the deferred block
                    mode = .lineAfterStartByte
                    index += 1
                    return index
                default:
                    statistics.base64Errors += 1  // console text or noise: the line was cut short
                    abandonLine()
                    return index
                }
            }
            return index
        }
    }

    /// Appends the complete quantum's bytes to the packet; false (packet dropped, console mode)
    /// when they break `total_len`.
    private mutating func flushQuantum() -> Bool {
        let bytes = 3 - quantumPadding
        packet.append(UInt8(truncatingIfNeeded: quantum >> 16))
        if bytes > 1 { packet.append(UInt8(truncatingIfNeeded: quantum >> 8)) }
        if bytes > 2 { packet.append(UInt8(truncatingIfNeeded: quantum)) }
        quantum = 0
        quantumFill = 0
        quantumPadding = 0
        if expectedCount < 0 {
            guard packet.count >= 2 else { return true }
            let total = Int(packet[0]) << 8 | Int(packet[1])
            guard total >= 2 && total - 2 <= maximumMessageSize else {
                statistics.lengthErrors += 1
                abandonLine()
                return false
            }
            expectedCount = total + 2
            packet.reserveCapacity(expectedCount)
        }
        guard packet.count <= expectedCount else {
            statistics.lengthErrors += 1
            abandonLine()
            return false
        }
        return true
    }

    /// The `\n` of an SMP line: checks the line and, if the packet is complete, delivers it.
    private mutating func endLine(into messages: inout [[UInt8]]) {
        mode = .console
        guard quantumFill == 0 else {
            statistics.base64Errors += 1
            dropPacket()
            return
        }
        guard expectedCount >= 0 else {
            statistics.lengthErrors += 1  // no total_len after the line that should carry it
            dropPacket()
            return
        }
        guard packet.count == expectedCount else { return }  // more lines to come
        let valid = packet.withUnsafeBufferPointer { bytes in
            CRC16XMODEM.update(0, UnsafeBufferPointer(rebasing: bytes[2...])) == 0
        }
        if valid {
            messages.append(Array(packet[2..<(packet.count - 2)]))
            statistics.packets += 1
        } else {
            statistics.crcErrors += 1
        }
        dropPacket()
    }
}
