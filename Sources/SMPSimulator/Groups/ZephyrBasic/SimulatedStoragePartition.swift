import Synchronization

/// The device's `storage_partition`: the flash the settings subsystem persists to, and what
/// Zephyr basic's erase-storage wipes. Shared (by reference) by the groups that use it, so that
/// an erase is seen by the settings group; its contents survive a device reset.
public final class SimulatedStoragePartition: Sendable {
    private struct State {
        var settings: [String: [UInt8]]
        var eraseCount = 0
    }

    private let state: Mutex<State>

    /// Creates a partition holding these saved settings.
    public init(settings: [String: [UInt8]] = [:]) {
        state = Mutex(State(settings: settings))
    }

    /// The settings saved in the partition, by name.
    public var settings: [String: [UInt8]] {
        state.withLock { $0.settings }
    }

    /// How many times the partition was erased.
    public var eraseCount: Int {
        state.withLock { $0.eraseCount }
    }

    /// Replaces the saved settings whose names `isIncluded` accepts by those of `values` it accepts.
    func saveSettings(_ values: [String: [UInt8]], where isIncluded: (String) -> Bool) {
        state.withLock { state in
            state.settings = state.settings.filter { !isIncluded($0.key) }
                .merging(values.filter { isIncluded($0.key) }) { $1 }
        }
    }

    /// Removes one saved setting.
    func deleteSetting(_ name: String) {
        _ = state.withLock { $0.settings.removeValue(forKey: name) }
    }

    /// Erases the whole partition.
    func erase() {
        state.withLock { state in
            state.settings = [:]
            state.eraseCount += 1
        }
    }
}
