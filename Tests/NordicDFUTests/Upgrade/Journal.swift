import Synchronization

/// What happened, in order, written from any thread: events, calls to a fake bootloader.
final class Journal: Sendable {
    private let entries = Mutex<[String]>([])

    func append(_ entry: String) { entries.withLock { $0.append(entry) } }

    var all: [String] { entries.withLock { $0 } }
}
