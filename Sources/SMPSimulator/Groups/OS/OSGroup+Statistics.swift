import CBOR
import SMP

extension OSGroup {
    /// Task statistics (cmd 2): `{"tasks": {name: {prio, tid, state, stksiz, stkuse, runtime…}}}`,
    /// fields in Zephyr's order, `tid` the index in the iteration, duplicate names kept.
    func taskStatistics(_ configuration: VirtualDeviceConfiguration) -> CBORMap {
        var tasks = CBORMap()
        for (index, task) in configuration.tasks.enumerated() {
            var fields: CBORMap = [
                "prio": .int(task.priority), "tid": .integer(index), "state": .unsigned(task.state),
            ]
            if let stackSize = task.stackSize, let stackUsed = task.stackUsed {
                fields.append(key: "stksiz", value: .unsigned(stackSize))
                fields.append(key: "stkuse", value: .unsigned(stackUsed))
            }
            if let runtime = task.runtime { fields.append(key: "runtime", value: .unsigned(runtime)) }
            if configuration.taskStatisticsAllFields {
                for key in ["cswcnt", "last_checkin", "next_checkin"] { fields.append(key: .text(key), value: 0) }
            }
            tasks.append(key: .text(task.name), value: .map(fields))
        }
        return ["tasks": .map(tasks)]
    }

    /// Memory pool statistics (cmd 3), Mynewt's shape: `{"mpools": {name: {blksiz, nblks, nfree, min}}}`.
    func memoryPoolStatistics(_ pools: [SimulatedMemoryPool]) -> CBORMap {
        var map = CBORMap()
        for pool in pools {
            map.append(key: .text(pool.name), value: [
                "blksiz": .unsigned(pool.blockSize), "nblks": .unsigned(pool.blocks),
                "nfree": .unsigned(pool.free), "min": .unsigned(pool.minimumFree),
            ])
        }
        return ["mpools": .map(map)]
    }
}
