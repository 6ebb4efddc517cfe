// An SMP `os echo` over UDP with nothing but the `SMP` and `SMPUDP` products: no serial port
// discovery (libudev), no Bluetooth (libdbus), no connection strings. Tests/Scripts/standalone/
// check-standalone.sh builds it without those system libraries and runs it against `smpctl simulate`.
//
//     udp-echo-example [host] [port] [text]      (defaults: 127.0.0.1 1337 hello)
#if canImport(Glibc)
import Glibc
#endif
import SMP
import SMPUDP

/// Writes `message` to standard error and ends the process with status 1.
func fail(_ message: String) -> Never {
    let line = Array("udp-echo-example: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(1)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count <= 3 else { fail("usage: udp-echo-example [host] [port] [text]") }
let host = arguments.count > 0 ? arguments[0] : "127.0.0.1"
let portText = arguments.count > 1 ? arguments[1] : String(UDPTransport.defaultPort)
guard let port = Int(portText) else { fail("the port '\(portText)' is not a number; give one from 1 to 65535") }
let text = arguments.count > 2 ? arguments[2] : "hello"

do {
    let transport = try await UDPTransport.connect(host: host, port: port)
    let client = SMPClient(transport: transport)
    let reply: String
    do {
        reply = try await client.send(OSEcho(text))
    } catch {
        await client.close()
        throw error
    }
    await client.close()
    print(reply)
} catch {
    fail("\(error)")
}
