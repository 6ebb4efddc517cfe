extension SMPErrorTable {
    /// Image group (1), Zephyr `enum img_mgmt_err_code_t`; v1 translation from `img_mgmt.c`
    /// (29–34 are not in Zephyr's switch and fall to its default, EUNKNOWN).
    static let image = SMPErrorTable(group: 1, prefix: "IMG_MGMT_ERR_", title: "image", entries: [
        .init(0, "OK", "success: the image group reported no error", .ok),
        .init(1, "UNKNOWN", "the image group reported an unspecified error; check the device's log output",
              .unknown),
        .init(2, "FLASH_CONFIG_QUERY_FAIL",
              "the device could not query its flash configuration; check the firmware's flash driver and "
              + "partition layout", .unknown),
        .init(3, "NO_IMAGE", "there is no valid image in the requested slot", .noEntry),
        .init(4, "NO_TLVS",
              "the image has no TLV area, so it is not a signed MCUboot image; sign it (imgtool or west sign)",
              .noEntry),
        .init(5, "INVALID_TLV", "the image's TLV area is invalid; re-sign the image and upload it again",
              .unknown),
        .init(6, "TLV_MULTIPLE_HASHES_FOUND",
              "the image carries more than one hash TLV; re-sign it with a single SHA-256 hash", .unknown),
        .init(7, "TLV_INVALID_SIZE",
              "a TLV in the image has an invalid size; the image is corrupt or was signed by an incompatible tool",
              .unknown),
        .init(8, "HASH_NOT_FOUND",
              "no slot holds an image with that hash; use the hash shown by the image list (the image's "
              + "SHA-256 TLV, not the SHA-256 of the file)", .unknown),
        .init(9, "NO_FREE_SLOT",
              "no free slot: the target slot holds an image in use (running, pending or the revert target); "
              + "confirm the running image and reset, or erase the slot first", .badState),
        .init(10, "FLASH_OPEN_FAILED",
              "the device could not open the slot's flash area; check the firmware's slot partitions", .unknown),
        .init(11, "FLASH_READ_FAILED", "reading the slot's flash failed on the device", .unknown),
        .init(12, "FLASH_WRITE_FAILED",
              "writing flash failed on the device, which abandoned the upload; restart it from offset 0",
              .unknown),
        .init(13, "FLASH_ERASE_FAILED",
              "erasing the slot's flash failed on the device; retry, and check the flash driver or external flash",
              .unknown),
        .init(14, "INVALID_SLOT",
              "the slot number is invalid; the erase command takes the absolute slot (image × 2 + slot)",
              .invalidValue),
        .init(15, "NO_FREE_MEMORY", "the device ran out of memory while handling the image request", .noMemory),
        .init(16, "FLASH_CONTEXT_ALREADY_SET",
              "the device's flash write context was already set up (upload state out of step); restart the "
              + "upload from offset 0", .unknown),
        .init(17, "FLASH_CONTEXT_NOT_SET",
              "the device has no flash write context (its upload state was lost); restart the upload from "
              + "offset 0", .unknown),
        .init(18, "FLASH_AREA_DEVICE_NULL",
              "the slot's flash area has no flash device; check the firmware's devicetree partitions", .unknown),
        .init(19, "INVALID_PAGE_OFFSET", "the flash page offset is invalid", .invalidValue),
        .init(20, "INVALID_OFFSET", "the upload chunk has no valid offset (`off` is required in every chunk)",
              .invalidValue),
        .init(21, "INVALID_LENGTH",
              "the first upload chunk lacks a valid total length (`len` is required when off = 0)",
              .invalidValue),
        .init(22, "INVALID_IMAGE_HEADER",
              "the first upload chunk is shorter than the 32-byte MCUboot image header; send at least 32 bytes "
              + "in it", .invalidValue),
        .init(23, "INVALID_IMAGE_HEADER_MAGIC",
              "the file is not an MCUboot image (wrong header magic); upload the signed image such as "
              + "zephyr.signed.bin, not a raw binary, hex file or SUIT envelope", .invalidValue),
        .init(24, "INVALID_HASH",
              "the hash is invalid: give the 32-byte image hash (only confirming the running image may omit it)",
              .invalidValue),
        .init(25, "INVALID_FLASH_ADDRESS",
              "the image was linked for the other slot's address (DirectXIP); upload the build made for the "
              + "inactive slot", .invalidValue),
        .init(26, "VERSION_GET_FAILED",
              "the device could not read the running image's version to compare it with the upload", .unknown),
        .init(27, "CURRENT_VERSION_IS_NEWER",
              "the running image is newer than the one uploaded with upgrade=true; build a higher version or "
              + "upload without --upgrade", .badState),
        .init(28, "IMAGE_ALREADY_PENDING",
              "another image is already pending, or the running test image is not confirmed yet; reset to boot "
              + "it, or confirm the running image first", .badState),
        .init(29, "INVALID_IMAGE_VECTOR_TABLE",
              "the image's vector table is invalid; it was probably built for another device or slot", .unknown),
        .init(30, "INVALID_IMAGE_TOO_LARGE",
              "the image is too large for the slot (which also holds MCUboot's trailer); shrink the image or "
              + "enlarge the slot partitions", .unknown),
        .init(31, "INVALID_IMAGE_DATA_OVERRUN",
              "more data was sent than the length given in the first chunk; restart the upload with the right "
              + "`len`", .unknown),
        .init(32, "IMAGE_CONFIRMATION_DENIED",
              "the device does not allow confirming this image (a slot of a non-active image); see "
              + "MCUMGR_GRP_IMG_ALLOW_CONFIRM_NON_ACTIVE_IMAGE_*", .unknown),
        .init(33, "IMAGE_SETTING_TEST_TO_ACTIVE_DENIED",
              "the running image cannot be marked for test; to keep it, confirm it instead", .unknown),
        .init(34, "ACTIVE_SLOT_NOT_KNOWN",
              "the device could not tell which slot is running, so it cannot check the image size; check the "
              + "MCUboot mode the firmware was built for", .unknown),
    ])
}
