import SMPBluetooth

extension ConnectionOptions {
    /// An on/off value as connection strings write it: 1, true, yes or 0, false, no; nil otherwise.
    static func switchValue(_ value: String) -> Bool? {
        switch value.lowercased() {
        case "1", "true", "yes": true
        case "0", "false", "no": false
        default: nil
        }
    }

    /// A passkey as a connection string writes it: six digits.
    static func passkeyText(_ passkey: UInt32) -> String {
        BLEPasskey.sixDigits(passkey)
    }

    /// How BLE links opened with these options connect and pair, within `timeout`.
    public func bleConnectOptions(timeout: Duration) -> BLEConnectOptions {
        BLEConnectOptions(
            adapter: adapter, mtu: mtu, pair: pair ?? false, passkey: passkey, acceptsAnyNumber: acceptsAnyNumber ?? false, timeout: timeout)
    }
}
