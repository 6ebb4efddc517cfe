import ArgumentParser
import SMPSimulator

/// `simulate --count N` and `--device-fault INDEX:KIND[=VALUE]`: many virtual devices in one
/// process, some of them faulty.
struct SimulateCountOptions: ParsableArguments {
    /// The most devices one `simulate` serves.
    static let maximumCount = 1000

    @Option(help: ArgumentHelp(
        "Serve this many independent devices (1 to 1000), each with its own flash and the name sim-1, sim-2...: UDP on consecutive ports from --udp's (port 0: consecutive free ones), serial links PATH-1, PATH-2... for --serial-link PATH.",
        valueName: "count"))
    var count: Int?

    @Option(name: .customLong("device-fault"), help: ArgumentHelp(
        "A fault of one device, INDEX:KIND[=VALUE], INDEX from 1 (repeatable): die-mid-upload[=FRACTION] (silent for good once that fraction of an image upload arrived; default 0.5), slow[=MS] (every request takes MS ms longer; default 200), reject-image (uploads refused with IMG_MGMT_ERR_INVALID_IMAGE_HEADER_MAGIC), no-return (silent for good after a reset).",
        valueName: "index:kind[=value]"))
    var deviceFault: [String] = []

    /// How many devices to serve.
    var devices: Int { count ?? 1 }

    func validate() throws {
        if let count, !(1...Self.maximumCount).contains(count) {
            throw ValidationError("--count takes a whole number of devices from 1 to \(Self.maximumCount), not \(count)")
        }
        _ = try faults()
    }

    /// The faults of each device, by index from 1.
    func faults() throws -> [Int: [DeviceFault]] {
        var faults: [Int: [DeviceFault]] = [:]
        for text in deviceFault {
            let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, let index = Int(parts[0]) else {
                throw ValidationError("--device-fault \(text): write INDEX:KIND[=VALUE], e.g. 2:slow=200 or 3:die-mid-upload")
            }
            guard (1...devices).contains(index) else {
                throw ValidationError(
                    "--device-fault \(text): there is no device \(index); the devices are numbered 1 to \(devices)"
                        + (count == nil ? " (give --count N for more)" : ""))
            }
            do {
                faults[index, default: []].append(try DeviceFault(parsing: String(parts[1])))
            } catch {
                throw ValidationError("--device-fault \(text): \(error.description)")
            }
        }
        return faults
    }
}
