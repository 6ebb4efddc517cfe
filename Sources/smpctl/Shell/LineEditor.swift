/// A small line editor over raw terminal input: keys (bytes) go in, screen updates (bytes) and
/// finished lines come out. It does no I/O itself, so it can be tested byte by byte.
///
/// Keys: printable text inserts; ←/→ and Ctrl-B/Ctrl-F move; Home/End and Ctrl-A/Ctrl-E jump;
/// Backspace deletes left, Delete right; Ctrl-K cuts to the end, Ctrl-U to the start, Ctrl-W
/// the word before the cursor; Ctrl-L clears the screen; ↑/↓ browse the history; Enter submits;
/// Ctrl-C abandons the line; Ctrl-D on an empty line ends the input (else deletes right).
///
/// The line is redrawn in place (carriage return, prompt, text, clear to end of line, cursor
/// back), which assumes it fits on one terminal row and every character is one column wide.
struct LineEditor {
    /// What a key produced besides screen output.
    enum Event: Equatable {
        /// Enter: the finished line (already added to the history).
        case submit(String)
        /// Ctrl-D on an empty line.
        case endOfInput
    }

    /// The prompt written before the line.
    let prompt: String
    /// The lines entered so far.
    private(set) var history: LineHistory
    /// The text being edited.
    private(set) var buffer: [Character] = []
    /// The cursor position in `buffer` (0…count).
    private(set) var cursor = 0

    /// Where up/down browsing is: an index into the history, or nil on the line being typed.
    private var browsing: Int?
    /// The line being typed, kept while browsing the history.
    private var draft: [Character] = []
    /// Bytes of an unfinished escape sequence or UTF-8 character.
    private var pending: [UInt8] = []

    /// Creates an editor with an empty line.
    init(prompt: String, history: LineHistory = LineHistory()) {
        self.prompt = prompt
        self.history = history
    }

    /// The current line as text.
    var line: String { String(buffer) }

    /// The prompt and the empty line: what to write before the first key.
    var start: [UInt8] { Array(prompt.utf8) }

    /// Handles some input bytes; returns what to write to the screen and the events, in order.
    mutating func feed(_ bytes: [UInt8]) -> (screen: [UInt8], events: [Event]) {
        var screen: [UInt8] = []
        var events: [Event] = []
        for byte in bytes {
            let (output, event) = feed(byte)
            screen += output
            if let event { events.append(event) }
        }
        return (screen, events)
    }

    /// Handles one input byte.
    mutating func feed(_ byte: UInt8) -> (screen: [UInt8], event: Event?) {
        if !pending.isEmpty || byte == 0x1B {
            pending.append(byte)
            return pending[0] == 0x1B ? escapeSequence() : utf8Continuation()
        }
        switch byte {
        case 0x0D, 0x0A: return submit()
        case 0x01: return move(to: 0)
        case 0x05: return move(to: buffer.count)
        case 0x02: return move(to: cursor - 1)
        case 0x06: return move(to: cursor + 1)
        case 0x7F, 0x08: return edit { if $0.cursor > 0 { $0.buffer.remove(at: $0.cursor - 1); $0.cursor -= 1 } }
        case 0x04 where buffer.isEmpty: return (Array("\r\n".utf8), .endOfInput)
        case 0x04: return deleteRight()
        case 0x0B: return edit { $0.buffer.removeSubrange($0.cursor...) }
        case 0x15: return edit { $0.buffer.removeSubrange(..<$0.cursor); $0.cursor = 0 }
        case 0x17: return edit { $0.deleteWordBeforeCursor() }
        case 0x0C: return (Array("\u{1B}[H\u{1B}[2J".utf8) + redraw(), nil)
        case 0x03: return cancel()
        case 0x00..<0x20: return ([], nil)
        case 0x20..<0x80: return insert(Character(Unicode.Scalar(byte)))
        default:
            pending.append(byte)
            return utf8Continuation()
        }
    }

    // MARK: Keys

    private mutating func submit() -> (screen: [UInt8], event: Event?) {
        let text = line
        history.add(text)
        reset()
        return (Array("\r\n".utf8), .submit(text))
    }

    private mutating func cancel() -> (screen: [UInt8], event: Event?) {
        reset()
        return (Array("^C\r\n".utf8) + start, nil)
    }

    private mutating func reset() {
        buffer = []
        cursor = 0
        browsing = nil
        draft = []
    }

    private mutating func insert(_ character: Character) -> (screen: [UInt8], event: Event?) {
        edit {
            $0.buffer.insert(character, at: $0.cursor)
            $0.cursor += 1
        }
    }

    private mutating func deleteRight() -> (screen: [UInt8], event: Event?) {
        edit { if $0.cursor < $0.buffer.count { $0.buffer.remove(at: $0.cursor) } }
    }

    private mutating func deleteWordBeforeCursor() {
        var start = cursor
        while start > 0 && buffer[start - 1].isWhitespace { start -= 1 }
        while start > 0 && !buffer[start - 1].isWhitespace { start -= 1 }
        buffer.removeSubrange(start..<cursor)
        cursor = start
    }

    private mutating func move(to position: Int) -> (screen: [UInt8], event: Event?) {
        let target = min(max(0, position), buffer.count)
        guard target != cursor else { return ([], nil) }
        let step = target < cursor ? "\u{1B}[\(cursor - target)D" : "\u{1B}[\(target - cursor)C"
        cursor = target
        return (Array(step.utf8), nil)
    }

    /// Up (-1) or down (+1) in the history; the line being typed comes back below the newest.
    private mutating func browse(_ direction: Int) -> (screen: [UInt8], event: Event?) {
        let entries = history.entries
        let current = browsing ?? entries.count
        let next = current + direction
        guard next >= 0, next <= entries.count, next != current else { return ([], nil) }
        if browsing == nil { draft = buffer }
        browsing = next == entries.count ? nil : next
        buffer = browsing.map { Array(entries[$0]) } ?? draft
        cursor = buffer.count
        return (redraw(), nil)
    }

    /// Applies a change to the line and redraws it.
    private mutating func edit(_ change: (inout LineEditor) -> Void) -> (screen: [UInt8], event: Event?) {
        change(&self)
        return (redraw(), nil)
    }

    /// Carriage return, prompt, line, clear to the end of the row, cursor back into place.
    private func redraw() -> [UInt8] {
        var text = "\r" + prompt + line + "\u{1B}[K"
        let back = buffer.count - cursor
        if back > 0 { text += "\u{1B}[\(back)D" }
        return Array(text.utf8)
    }

    // MARK: Multi-byte input

    /// Collects `ESC [ …` (CSI) and `ESC O x` (SS3) sequences and acts on the known ones;
    /// unknown ones are swallowed.
    private mutating func escapeSequence() -> (screen: [UInt8], event: Event?) {
        guard pending.count >= 2 else { return ([], nil) }
        let introducer = pending[1]
        if introducer == UInt8(ascii: "O") {
            guard pending.count >= 3 else { return ([], nil) }
            return finishEscape(final: pending[2], parameter: "")
        }
        guard introducer == UInt8(ascii: "[") else {
            pending = []
            return ([], nil)
        }
        guard pending.count >= 3, let last = pending.last, (0x40...0x7E).contains(last) else {
            if pending.count > 16 { pending = [] }
            return ([], nil)
        }
        let parameter = String(decoding: pending[2..<(pending.count - 1)], as: UTF8.self)
        return finishEscape(final: last, parameter: parameter)
    }

    private mutating func finishEscape(final: UInt8, parameter: String) -> (screen: [UInt8], event: Event?) {
        pending = []
        switch (Character(Unicode.Scalar(final)), parameter) {
        case ("A", _): return browse(-1)
        case ("B", _): return browse(+1)
        case ("C", _): return move(to: cursor + 1)
        case ("D", _): return move(to: cursor - 1)
        case ("H", _), ("~", "1"), ("~", "7"): return move(to: 0)
        case ("F", _), ("~", "4"), ("~", "8"): return move(to: buffer.count)
        case ("~", "3"): return deleteRight()
        default: return ([], nil)
        }
    }

    /// Collects the bytes of one UTF-8 character and inserts it once complete; invalid bytes
    /// are dropped.
    private mutating func utf8Continuation() -> (screen: [UInt8], event: Event?) {
        let expected: Int
        switch pending[0] {
        case 0xC2...0xDF: expected = 2
        case 0xE0...0xEF: expected = 3
        case 0xF0...0xF4: expected = 4
        default:
            pending = []
            return ([], nil)
        }
        guard pending.count >= expected else { return ([], nil) }
        let bytes = pending
        pending = []
        guard let text = String(validating: bytes, as: UTF8.self), let character = text.first else { return ([], nil) }
        return insert(character)
    }
}
