import ArgumentParser

/// Where to serve UDP.
struct UDPServeOptions: ParsableArguments {
    static let defaultAddress = "127.0.0.1:1337"

    @Option(name: .customLong("udp"), help: ArgumentHelp(
        "Address and port to serve on: 127.0.0.1:1337, [::1]:0, 0.0.0.0:1337 (default \(defaultAddress) unless only --serial-link is given).",
        valueName: "host:port"))
    var address: String?
}
