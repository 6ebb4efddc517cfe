import Synchronization

/// What pairing needs from the person at the device: a passkey typed in, a passkey shown, a number
/// confirmed. The front end implements it (prompts at a terminal, a dialog); the library never
/// reads a terminal itself.
///
/// Methods are called while `Device1.Pair()` runs, from the pairing agent registered on the same
/// D-Bus connection; bluetoothd gives up (and the pairing fails) if no answer comes within its
/// own time limit (about 30 s).
public protocol BLEPairingInteraction: Sendable {
    /// The passkey `device` displays, 0–999999, as the person reads it.
    ///
    /// - Throws: ``BLEPairingRefusal`` when no one can be asked (no terminal) or they decline:
    ///   pairing stops at once and fails with that reason.
    func passkey(for device: BLEDevice) async throws(BLEPairingRefusal) -> UInt32

    /// Shows `passkey` (to be printed as six digits, `012345`) for the person to type on `device`.
    /// Called once per pairing.
    func display(passkey: UInt32, for device: BLEDevice) async

    /// Whether `device` shows the same number, `passkey` (six digits): numeric comparison.
    ///
    /// - Throws: ``BLEPairingRefusal`` when no one can be asked.
    func confirm(passkey: UInt32, for device: BLEDevice) async throws(BLEPairingRefusal) -> Bool
}

/// Why a pairing interaction gave no answer: its words become the pairing's error.
public struct BLEPairingRefusal: Error, Sendable, Hashable {
    /// What was refused and why ("the device asks for a passkey and there is no terminal to ask it at").
    public var reason: String
    /// How to give the answer another way, if there is one.
    public var hint: String?

    /// Creates a refusal.
    public init(_ reason: String, hint: String? = nil) {
        self.reason = reason
        self.hint = hint
    }
}

/// The interaction that connection options made without one use: a front end sets it once, when
/// it starts, so that every link it opens from a connection string can ask its user.
public enum BLEPairingInteractions {
    private static let shared = Mutex<(any BLEPairingInteraction)?>(nil)

    /// The front end's interaction; nil (the default) asks no one: passkeys and numbers can then
    /// only come from the options (``BLEConnectOptions/passkey``, ``BLEConnectOptions/acceptsAnyNumber``).
    public static var frontEnd: (any BLEPairingInteraction)? {
        get { shared.withLock { $0 } }
        set { shared.withLock { $0 = newValue } }
    }
}

/// Passkeys as BlueZ says to show them.
public enum BLEPasskey {
    /// Six digits, zero-padded: `012345`.
    public static func sixDigits(_ passkey: UInt32) -> String {
        let digits = String(passkey)
        return String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }
}
