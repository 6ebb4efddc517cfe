import SMPKit
import SMPSerial
import SMPSerialDiscovery

extension SerialPortSelector {
    /// Parses what follows `serial:` in a connection string (`usb=2fe3:0100`, `/dev/ttyACM0`,
    /// `auto`…), with the connection-string parser and its error messages; `serial:` in front is
    /// accepted too.
    static func parse(_ text: String) throws -> SerialPortSelector {
        let connection = try ConnectionString(parsing: text.lowercased().hasPrefix("serial:") ? text : "serial:" + text)
        guard case .serial(let selector) = connection.target else {
            throw CLIError(.usage, "\"\(text)\" is not a serial port selector", hint: selectorForms)
        }
        return selector
    }

    /// The accepted selector forms, for hints.
    static let selectorForms = "use /dev/ttyACM0, a /dev/serial/by-id/… link, usb=VID:PID, usb=VID:PID:SERIAL, serial-number=SERIAL or auto"
}

extension CLIError {
    /// A discovery failure as the CLI reports it: no match 69, several matches 64, timeout 75.
    init(discovery error: SerialPortDiscoveryError) {
        let status: ExitStatus = switch error {
        case .noMatch, .udevUnavailable: .transport
        case .ambiguous: .usage
        case .timedOut: .timeout
        }
        self.init(status, error.message, hint: error.hint)
    }
}
