import SMP
import SMPBluetooth

extension SMPConnection {
    /// How long opening a BLE link may take by default: finding the device (it may still be
    /// rebooting and not advertising), connecting and resolving its services.
    public static let bleConnectTimeout: Duration = .seconds(30)

    /// Opens a BLE link through BlueZ on the system bus. The `timeout` option bounds the whole
    /// connection; opening again after a reset scans until the device advertises again.
    static func openBLE(_ selector: ConnectionString.BLESelector, options: ConnectionOptions) async throws(SMPError) -> BLETransport {
        let target = selector.deviceSelector
        let timeout = options.timeout.map { Duration.seconds($0) } ?? bleConnectTimeout
        do {
            return try await BLETransport.open(
                target, options: options.bleConnectOptions(timeout: timeout))
        } catch {
            throw .transport(error)
        }
    }
}
