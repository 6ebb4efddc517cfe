import Logging
import SMPSerial

/// The "1200-baud touch": opening a port at a given baud rate and closing it again, with which
/// an Adafruit nRF52 application (its Arduino core's USB CDC) restarts the chip into the DFU
/// bootloader (which then enumerates anew on the same port).
public enum SerialTouch {
    /// How long the device may take to restart and enumerate after a touch (adafruit-nrfutil
    /// waits 1.5 s).
    public static let settleTime = Duration.milliseconds(1500)

    /// Opens `path` at `baudRate`, closes it, and waits `settle`.
    ///
    /// - Throws: `SMPTransportError` when the port cannot be opened; `CancellationError`.
    public static func touch(path: String, baudRate: Int, settle: Duration = settleTime, logger: Logger) async throws {
        let port = try await SerialByteLink.open(path: path, options: SerialPortOptions(baudRate: baudRate), logger: logger)
        await port.close()
        logger.debug("serial:\(path): touched at \(baudRate) baud")
        try await Task.sleep(for: settle)
    }
}
