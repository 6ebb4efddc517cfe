/// The statistics group (2) of a ``VirtualDevice``: which groups it has, and how it names them.
public struct SimulatedStatisticsConfiguration: Sendable, Hashable {
    /// The statistics groups, in the order `stat list` reports them.
    public var groups: [SimulatedStatisticsGroup]
    /// `MCUMGR_GRP_STAT_MAX_NAME_LEN`: longer requested names are answered rc 3 (`EINVAL`).
    public var maximumNameLength: Int
    /// Report the counters as `s0`, `s1`… as a device built without `STATS_NAMES` does.
    public var syntheticNames: Bool

    /// Creates a configuration; the defaults are Zephyr's `smp_svr` sample plus a `mgmt` group.
    public init(
        groups: [SimulatedStatisticsGroup] = SimulatedStatisticsGroup.zephyrDefaults, maximumNameLength: Int = 32,
        syntheticNames: Bool = false
    ) {
        self.groups = groups
        self.maximumNameLength = maximumNameLength
        self.syntheticNames = syntheticNames
    }
}

/// One statistics group: a name and its counters.
public struct SimulatedStatisticsGroup: Sendable, Hashable {
    /// The group's name.
    public var name: String
    /// Its counters, in order.
    public var counters: [SimulatedStatistic]

    /// Creates a group.
    public init(name: String, counters: [SimulatedStatistic]) {
        self.name = name
        self.counters = counters
    }

    /// A group of `count` constant counters `counter_0`, `counter_1`… (each its index): with
    /// enough of them its answer does not fit a small buffer and the device refuses the read
    /// with `MGMT_ERR_EMSGSIZE`, as Zephyr does for large groups such as `flash_sim_stats`.
    public static func numbered(name: String, count: Int) -> SimulatedStatisticsGroup {
        SimulatedStatisticsGroup(name: name, counters: (0..<max(0, count)).map {
            SimulatedStatistic(name: "counter_\($0)", source: .constant(UInt64($0)))
        })
    }

    /// `smp_svr_stats` (one tick per second of uptime, as the Zephyr sample counts) and `mgmt`
    /// (the requests the device handled).
    public static let zephyrDefaults: [SimulatedStatisticsGroup] = [
        SimulatedStatisticsGroup(name: "smp_svr_stats", counters: [SimulatedStatistic(name: "ticks", source: .ticks(perSecond: 1))]),
        SimulatedStatisticsGroup(name: "mgmt", counters: [
            SimulatedStatistic(name: "requests", source: .requestsHandled),
            SimulatedStatistic(name: "errors", source: .constant(0)),
        ]),
    ]
}

/// One counter of a statistics group and where its value comes from.
public struct SimulatedStatistic: Sendable, Hashable {
    /// Where a counter's value comes from.
    public enum Source: Sendable, Hashable {
        /// A fixed value.
        case constant(UInt64)
        /// The device's uptime in ticks of this rate.
        case ticks(perSecond: UInt64)
        /// The requests the device has processed, the current one included.
        case requestsHandled
    }

    /// The counter's name.
    public var name: String
    /// Its value's source.
    public var source: Source

    /// Creates a counter.
    public init(name: String, source: Source) {
        self.name = name
        self.source = source
    }

    /// The value at this point of the device's life.
    func value(in context: SimulatedDeviceContext) -> UInt64 {
        switch source {
        case .constant(let value):
            return value
        case .ticks(let rate):
            let (seconds, attoseconds) = context.uptime.components
            return UInt64(max(0, seconds)) &* rate &+ UInt64(max(0, attoseconds)) / 1_000_000_000 &* rate / 1_000_000_000
        case .requestsHandled:
            return UInt64(max(0, context.requestsHandled))
        }
    }
}
