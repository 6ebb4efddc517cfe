/// Image group (1), Zephyr `enum img_mgmt_err_code_t`; v1 translation from `img_mgmt.c`
/// (29–34 are not in Zephyr's switch and fall to its default, EUNKNOWN).
///
/// Each case names one `err.rc` value; ``SMPGroupErrorCode/name`` gives Zephyr's enumerator name.
public enum ImageGroupError: Int64, SMPGroupErrorCode {
    /// `IMG_MGMT_ERR_OK` (0).
    case ok = 0
    /// `IMG_MGMT_ERR_UNKNOWN` (1).
    case unknown = 1
    /// `IMG_MGMT_ERR_FLASH_CONFIG_QUERY_FAIL` (2).
    case flashConfigQueryFail = 2
    /// `IMG_MGMT_ERR_NO_IMAGE` (3).
    case noImage = 3
    /// `IMG_MGMT_ERR_NO_TLVS` (4).
    case noTlvs = 4
    /// `IMG_MGMT_ERR_INVALID_TLV` (5).
    case invalidTlv = 5
    /// `IMG_MGMT_ERR_TLV_MULTIPLE_HASHES_FOUND` (6).
    case tlvMultipleHashesFound = 6
    /// `IMG_MGMT_ERR_TLV_INVALID_SIZE` (7).
    case tlvInvalidSize = 7
    /// `IMG_MGMT_ERR_HASH_NOT_FOUND` (8).
    case hashNotFound = 8
    /// `IMG_MGMT_ERR_NO_FREE_SLOT` (9).
    case noFreeSlot = 9
    /// `IMG_MGMT_ERR_FLASH_OPEN_FAILED` (10).
    case flashOpenFailed = 10
    /// `IMG_MGMT_ERR_FLASH_READ_FAILED` (11).
    case flashReadFailed = 11
    /// `IMG_MGMT_ERR_FLASH_WRITE_FAILED` (12).
    case flashWriteFailed = 12
    /// `IMG_MGMT_ERR_FLASH_ERASE_FAILED` (13).
    case flashEraseFailed = 13
    /// `IMG_MGMT_ERR_INVALID_SLOT` (14).
    case invalidSlot = 14
    /// `IMG_MGMT_ERR_NO_FREE_MEMORY` (15).
    case noFreeMemory = 15
    /// `IMG_MGMT_ERR_FLASH_CONTEXT_ALREADY_SET` (16).
    case flashContextAlreadySet = 16
    /// `IMG_MGMT_ERR_FLASH_CONTEXT_NOT_SET` (17).
    case flashContextNotSet = 17
    /// `IMG_MGMT_ERR_FLASH_AREA_DEVICE_NULL` (18).
    case flashAreaDeviceNull = 18
    /// `IMG_MGMT_ERR_INVALID_PAGE_OFFSET` (19).
    case invalidPageOffset = 19
    /// `IMG_MGMT_ERR_INVALID_OFFSET` (20).
    case invalidOffset = 20
    /// `IMG_MGMT_ERR_INVALID_LENGTH` (21).
    case invalidLength = 21
    /// `IMG_MGMT_ERR_INVALID_IMAGE_HEADER` (22).
    case invalidImageHeader = 22
    /// `IMG_MGMT_ERR_INVALID_IMAGE_HEADER_MAGIC` (23).
    case invalidImageHeaderMagic = 23
    /// `IMG_MGMT_ERR_INVALID_HASH` (24).
    case invalidHash = 24
    /// `IMG_MGMT_ERR_INVALID_FLASH_ADDRESS` (25).
    case invalidFlashAddress = 25
    /// `IMG_MGMT_ERR_VERSION_GET_FAILED` (26).
    case versionGetFailed = 26
    /// `IMG_MGMT_ERR_CURRENT_VERSION_IS_NEWER` (27).
    case currentVersionIsNewer = 27
    /// `IMG_MGMT_ERR_IMAGE_ALREADY_PENDING` (28).
    case imageAlreadyPending = 28
    /// `IMG_MGMT_ERR_INVALID_IMAGE_VECTOR_TABLE` (29).
    case invalidImageVectorTable = 29
    /// `IMG_MGMT_ERR_INVALID_IMAGE_TOO_LARGE` (30).
    case invalidImageTooLarge = 30
    /// `IMG_MGMT_ERR_INVALID_IMAGE_DATA_OVERRUN` (31).
    case invalidImageDataOverrun = 31
    /// `IMG_MGMT_ERR_IMAGE_CONFIRMATION_DENIED` (32).
    case imageConfirmationDenied = 32
    /// `IMG_MGMT_ERR_IMAGE_SETTING_TEST_TO_ACTIVE_DENIED` (33).
    case imageSettingTestToActiveDenied = 33
    /// `IMG_MGMT_ERR_ACTIVE_SLOT_NOT_KNOWN` (34).
    case activeSlotNotKnown = 34

    public static let group = SMPGroup.image
    public static let prefix = "IMG_MGMT_ERR_"

    public var info: SMPGroupErrorInfo {
        switch self {
        case .ok: .init("OK", "success: the image group reported no error", .ok)
        case .unknown:
            .init("UNKNOWN", "the image group reported an unspecified error; check the device's log output", .unknown)
        case .flashConfigQueryFail:
            .init(
                "FLASH_CONFIG_QUERY_FAIL",
                "the device could not query its flash configuration; check the firmware's flash driver and "
                    + "partition layout",
                .unknown)
        case .noImage: .init("NO_IMAGE", "there is no valid image in the requested slot", .noEntry)
        case .noTlvs:
            .init(
                "NO_TLVS",
                "the image has no TLV area, so it is not a signed MCUboot image; sign it (imgtool or west sign)",
                .noEntry)
        case .invalidTlv:
            .init("INVALID_TLV", "the image's TLV area is invalid; re-sign the image and upload it again", .unknown)
        case .tlvMultipleHashesFound:
            .init(
                "TLV_MULTIPLE_HASHES_FOUND",
                "the image carries more than one hash TLV; re-sign it with a single SHA-256 hash",
                .unknown)
        case .tlvInvalidSize:
            .init(
                "TLV_INVALID_SIZE",
                "a TLV in the image has an invalid size; the image is corrupt or was signed by an incompatible tool",
                .unknown)
        case .hashNotFound:
            .init(
                "HASH_NOT_FOUND",
                "no slot holds an image with that hash; use the hash shown by the image list (the image's "
                    + "SHA-256 TLV, not the SHA-256 of the file)",
                .unknown)
        case .noFreeSlot:
            .init(
                "NO_FREE_SLOT",
                "no free slot: the target slot holds an image in use (running, pending or the revert target); "
                    + "confirm the running image and reset, or erase the slot first",
                .badState)
        case .flashOpenFailed:
            .init(
                "FLASH_OPEN_FAILED",
                "the device could not open the slot's flash area; check the firmware's slot partitions",
                .unknown)
        case .flashReadFailed: .init("FLASH_READ_FAILED", "reading the slot's flash failed on the device", .unknown)
        case .flashWriteFailed:
            .init(
                "FLASH_WRITE_FAILED",
                "writing flash failed on the device, which abandoned the upload; restart it from offset 0",
                .unknown)
        case .flashEraseFailed:
            .init(
                "FLASH_ERASE_FAILED",
                "erasing the slot's flash failed on the device; retry, and check the flash driver or external flash",
                .unknown)
        case .invalidSlot:
            .init(
                "INVALID_SLOT",
                "the slot number is invalid; the erase command takes the absolute slot (image × 2 + slot)",
                .invalidValue)
        case .noFreeMemory:
            .init("NO_FREE_MEMORY", "the device ran out of memory while handling the image request", .noMemory)
        case .flashContextAlreadySet:
            .init(
                "FLASH_CONTEXT_ALREADY_SET",
                "the device's flash write context was already set up (upload state out of step); restart the "
                    + "upload from offset 0",
                .unknown)
        case .flashContextNotSet:
            .init(
                "FLASH_CONTEXT_NOT_SET",
                "the device has no flash write context (its upload state was lost); restart the upload from "
                    + "offset 0",
                .unknown)
        case .flashAreaDeviceNull:
            .init(
                "FLASH_AREA_DEVICE_NULL",
                "the slot's flash area has no flash device; check the firmware's devicetree partitions",
                .unknown)
        case .invalidPageOffset: .init("INVALID_PAGE_OFFSET", "the flash page offset is invalid", .invalidValue)
        case .invalidOffset:
            .init(
                "INVALID_OFFSET",
                "the upload chunk has no valid offset (`off` is required in every chunk)",
                .invalidValue)
        case .invalidLength:
            .init(
                "INVALID_LENGTH",
                "the first upload chunk lacks a valid total length (`len` is required when off = 0)",
                .invalidValue)
        case .invalidImageHeader:
            .init(
                "INVALID_IMAGE_HEADER",
                "the first upload chunk is shorter than the 32-byte MCUboot image header; send at least 32 bytes "
                    + "in it",
                .invalidValue)
        case .invalidImageHeaderMagic:
            .init(
                "INVALID_IMAGE_HEADER_MAGIC",
                "the file is not an MCUboot image (wrong header magic); upload the signed image such as "
                    + "zephyr.signed.bin, not a raw binary, hex file or SUIT envelope",
                .invalidValue)
        case .invalidHash:
            .init(
                "INVALID_HASH",
                "the hash is invalid: give the 32-byte image hash (only confirming the running image may omit it)",
                .invalidValue)
        case .invalidFlashAddress:
            .init(
                "INVALID_FLASH_ADDRESS",
                "the image was linked for the other slot's address (DirectXIP); upload the build made for the "
                    + "inactive slot",
                .invalidValue)
        case .versionGetFailed:
            .init(
                "VERSION_GET_FAILED",
                "the device could not read the running image's version to compare it with the upload",
                .unknown)
        case .currentVersionIsNewer:
            .init(
                "CURRENT_VERSION_IS_NEWER",
                "the running image is newer than the one uploaded with upgrade=true; build a higher version or "
                    + "upload without upgrade=true",
                .badState)
        case .imageAlreadyPending:
            .init(
                "IMAGE_ALREADY_PENDING",
                "another image is already pending, or the running test image is not confirmed yet; reset to boot "
                    + "it, or confirm the running image first",
                .badState)
        case .invalidImageVectorTable:
            .init(
                "INVALID_IMAGE_VECTOR_TABLE",
                "the image's vector table is invalid; it was probably built for another device or slot",
                .unknown)
        case .invalidImageTooLarge:
            .init(
                "INVALID_IMAGE_TOO_LARGE",
                "the image is too large for the slot (which also holds MCUboot's trailer); shrink the image or "
                    + "enlarge the slot partitions",
                .unknown)
        case .invalidImageDataOverrun:
            .init(
                "INVALID_IMAGE_DATA_OVERRUN",
                "more data was sent than the length given in the first chunk; restart the upload with the right "
                    + "`len`",
                .unknown)
        case .imageConfirmationDenied:
            .init(
                "IMAGE_CONFIRMATION_DENIED",
                "the device does not allow confirming this image (a slot of a non-active image); see "
                    + "MCUMGR_GRP_IMG_ALLOW_CONFIRM_NON_ACTIVE_IMAGE_*",
                .unknown)
        case .imageSettingTestToActiveDenied:
            .init(
                "IMAGE_SETTING_TEST_TO_ACTIVE_DENIED",
                "the running image cannot be marked for test; to keep it, confirm it instead",
                .unknown)
        case .activeSlotNotKnown:
            .init(
                "ACTIVE_SLOT_NOT_KNOWN",
                "the device could not tell which slot is running, so it cannot check the image size; check the "
                    + "MCUboot mode the firmware was built for",
                .unknown)
        }
    }
}

extension SMPGroupError {
    /// The error a device reports for `code`, e.g. `.image(.noFreeSlot)`; also a pattern that matches it
    /// (`case .groupError(.image(.noFreeSlot))`).
    public static func image(_ code: ImageGroupError) -> SMPGroupError { SMPGroupError(code) }
}
