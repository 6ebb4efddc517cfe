/// The counters of one statistics group, as the device reported them.
public struct StatisticsGroupData: Sendable, Hashable {
    /// One counter.
    public struct Field: Sendable, Hashable {
        /// The counter's name (`s0`, `s1`… on devices built without statistic names).
        public var name: String
        /// Its value.
        public var value: UInt64

        /// Creates a counter.
        public init(name: String, value: UInt64) {
            self.name = name
            self.value = value
        }
    }

    /// The group's name.
    public var name: String
    /// Its counters, in the device's order.
    public var fields: [Field]

    /// Creates group data.
    public init(name: String, fields: [Field]) {
        self.name = name
        self.fields = fields
    }

    /// The value of the counter with this name, if present.
    public func value(of field: String) -> UInt64? { fields.first { $0.name == field }?.value }
}
