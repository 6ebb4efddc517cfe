/// The result byte of a Secure DFU response (`nrf_dfu_result_t` in the nRF5 SDK's
/// `nrf_dfu_req_handler.h`; pc-nrfutil's `dfu_transport.py`).
public enum SecureDFUResultCode: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// 0x00: never sent by a working bootloader.
    case invalid = 0x00
    /// 0x01: done.
    case success = 0x01
    /// 0x02: the op code is unknown or turned off in this bootloader.
    case opCodeNotSupported = 0x02
    /// 0x03: a value in the request is out of range (an object size of 0, a write beyond the
    /// object, a request of the wrong length).
    case invalidParameter = 0x03
    /// 0x04: the object is larger than the bootloader takes (Create beyond Select's maximum, an
    /// image that does not fit).
    case insufficientResources = 0x04
    /// 0x05: the object is not valid: an init packet that does not decode, or (SDK ≤ 15.0) whose
    /// signature does not verify.
    case invalidObject = 0x05
    /// 0x07: Select or Create named an object type other than command and data.
    case unsupportedType = 0x07
    /// 0x08: not allowed in this state: data before a valid init packet, Execute of an object not
    /// written in full, a data object that would run past the image.
    case operationNotPermitted = 0x08
    /// 0x0A: the bootloader failed internally (flash, settings).
    case operationFailed = 0x0A
    /// 0x0B: an extended error follows (``SecureDFUExtendedError``).
    case extendedError = 0x0B

    /// What it means, in a few words.
    public var name: String {
        switch self {
        case .invalid: "invalid result code"
        case .success: "success"
        case .opCodeNotSupported: "operation not supported"
        case .invalidParameter: "invalid parameter"
        case .insufficientResources: "insufficient resources"
        case .invalidObject: "invalid object"
        case .unsupportedType: "unsupported object type"
        case .operationNotPermitted: "operation not permitted"
        case .operationFailed: "operation failed"
        case .extendedError: "extended error"
        }
    }

    /// What a user can do about it.
    public var hint: String {
        switch self {
        case .invalid, .extendedError:
            "the bootloader answered something it should not: try again, and update the bootloader if it persists"
        case .success:
            "nothing to do"
        case .opCodeNotSupported:
            "this bootloader does not implement that request (an nRF5 SDK older than 15, or a reduced protocol set): use a client setting that avoids it"
        case .invalidParameter:
            "the request did not fit the bootloader's state (a write beyond the object): run the update again; it resumes"
        case .insufficientResources:
            "the image or init packet is larger than the bootloader can store: check that the package is for this chip and bootloader"
        case .invalidObject:
            "the init packet was refused: it may be corrupt, or its signature may not verify (the package was signed with another key than the bootloader's)"
        case .unsupportedType:
            "the bootloader does not know this object type: it may not be a Secure DFU bootloader (legacy DFU, nRF5 SDK 11 or older?)"
        case .operationNotPermitted:
            "the bootloader was not ready for this step (no valid init packet yet, or an object not fully written): run the update again from the start"
        case .operationFailed:
            "the bootloader failed internally (flash or settings write): power-cycle the device into its bootloader and try again"
        }
    }

    public var description: String { "\(name) (0x\(String(rawValue, radix: 16, uppercase: true)))" }
}

/// The extended error after a ``SecureDFUResultCode/extendedError`` result (`nrf_dfu_ext_error_code_t`
/// in the nRF5 SDK's `nrf_dfu_handling_error.h`; pc-nrfutil's `dfu_transport.py`). Most come from
/// the checks of the init packet when its command object is executed, the last ones from the
/// check of the received image.
public enum SecureDFUExtendedError: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// 0x00: no extended error was set (a bootloader bug).
    case noError = 0x00
    /// 0x01: an invalid extended error code (a bootloader bug).
    case invalidErrorCode = 0x01
    /// 0x02: the request's format was wrong.
    case wrongCommandFormat = 0x02
    /// 0x03: the command parsed but is unknown or not supported.
    case unknownCommand = 0x03
    /// 0x04: the init command has an invalid update type or lacks a field it needs (a SoftDevice
    /// update without the SoftDevice size).
    case initCommandInvalid = 0x04
    /// 0x05: the firmware version is lower than the installed one (an application may be equal,
    /// a bootloader must be higher).
    case firmwareVersionTooLow = 0x05
    /// 0x06: the hardware version does not match the device's.
    case hardwareVersionMismatch = 0x06
    /// 0x07: the installed SoftDevice is not among the init packet's required ones (`sd_req`).
    case softDeviceVersionMismatch = 0x07
    /// 0x08: the init packet is not signed, and this bootloader requires a signature.
    case signatureMissing = 0x08
    /// 0x09: the hash type is not supported.
    case wrongHashType = 0x09
    /// 0x0A: the image's hash could not be computed.
    case hashFailed = 0x0A
    /// 0x0B: the signature type is not supported.
    case wrongSignatureType = 0x0B
    /// 0x0C: verification failed: the received image's hash differs from the init packet's, or
    /// (SDK 15.1+) the init packet's signature does not verify.
    case verificationFailed = 0x0C
    /// 0x0D: the device has no room for the image.
    case insufficientSpace = 0x0D
    /// 0x0E: the same firmware is already installed.
    case firmwareAlreadyPresent = 0x0E

    /// What it means, in a few words.
    public var name: String {
        switch self {
        case .noError: "no extended error set"
        case .invalidErrorCode: "invalid extended error code"
        case .wrongCommandFormat: "wrong command format"
        case .unknownCommand: "unknown command"
        case .initCommandInvalid: "init command invalid"
        case .firmwareVersionTooLow: "firmware version too low"
        case .hardwareVersionMismatch: "hardware version mismatch"
        case .softDeviceVersionMismatch: "SoftDevice requirement not met"
        case .signatureMissing: "signature missing"
        case .wrongHashType: "unsupported hash type"
        case .hashFailed: "hash could not be computed"
        case .wrongSignatureType: "unsupported signature type"
        case .verificationFailed: "verification failed"
        case .insufficientSpace: "insufficient space"
        case .firmwareAlreadyPresent: "firmware already present"
        }
    }

    /// What a user can do about it.
    public var hint: String {
        switch self {
        case .noError, .invalidErrorCode:
            "the bootloader reported an error without saying which (a bootloader bug): try again"
        case .wrongCommandFormat, .unknownCommand:
            "the bootloader did not understand a request: it may be older than this client expects"
        case .initCommandInvalid:
            "the package's init packet lacks what its image type needs (e.g. a SoftDevice image without sd_size): rebuild the package"
        case .firmwareVersionTooLow:
            "the package's fw_version must be at least the installed application's (higher than the installed bootloader's for a bootloader): rebuild it with a higher --application-version or --bootloader-version"
        case .hardwareVersionMismatch:
            "the package's hw_version does not match this device: use the package built for this board (e.g. --hw-version 52 for nRF52)"
        case .softDeviceVersionMismatch:
            "the package's sd_req does not list the SoftDevice installed on the device: rebuild it with this device's SoftDevice ID (--sd-req), or update the SoftDevice first"
        case .signatureMissing:
            "this bootloader only takes signed updates: sign the package with the key whose public half is built into the bootloader"
        case .wrongHashType, .wrongSignatureType:
            "the package uses a hash or signature type this bootloader does not support: build it with SHA-256 and ECDSA P-256"
        case .hashFailed:
            "the bootloader could not hash the image: power-cycle the device into its bootloader and try again"
        case .verificationFailed:
            "the image does not match the init packet's hash, or the package was signed with another key than the bootloader's: check that .dat and .bin belong together and the signing key"
        case .insufficientSpace:
            "the image does not fit on the device: use a smaller image or a single-bank bootloader configuration"
        case .firmwareAlreadyPresent:
            "this firmware is already installed: nothing to update"
        }
    }

    public var description: String { "\(name) (0x\(String(rawValue, radix: 16, uppercase: true)))" }
}
