import SMPBluetooth

extension ConnectionOptions {
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
