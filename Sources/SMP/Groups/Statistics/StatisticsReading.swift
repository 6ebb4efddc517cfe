/// The counters of several statistics groups read one after the other, and the groups the device
/// refused or answered wrongly.
public struct StatisticsReading: Sendable {
    /// A group that could not be read.
    public struct Failure: Sendable {
        /// The group's name.
        public var name: String
        /// Why: the device's refusal (an unknown name, an answer too large for its buffer…) or an
        /// answer that does not decode.
        public var error: SMPError
    }

    /// The groups read, in the order asked for.
    public var groups: [StatisticsGroupData]
    /// The groups that could not be read, in the order asked for.
    public var failures: [Failure]
}

extension SMPClient {
    /// Reads each group of `names`. When several are read, a group the device refuses or answers
    /// wrongly does not stop the others: it is among the ``StatisticsReading/failures``. A single
    /// group's failure, a timeout, a lost link or a cancellation throws.
    public func readStatistics(_ names: [String]) async throws(SMPError) -> StatisticsReading {
        var reading = StatisticsReading(groups: [], failures: [])
        for name in names {
            do {
                reading.groups.append(try await send(StatisticsRead(name: name)))
            } catch {
                guard names.count > 1, Self.concernsOneItem(error) else { throw error }
                reading.failures.append(StatisticsReading.Failure(name: name, error: error))
            }
        }
        return reading
    }

    /// Whether `error` concerns only the request it answers, so that a walk over several items
    /// may go on: the device refused it or answered it wrongly.
    static func concernsOneItem(_ error: SMPError) -> Bool {
        switch error {
        case .device, .invalidResponse: true
        case .timeout, .transport, .requestTooLarge, .cancelled: false
        }
    }
}
