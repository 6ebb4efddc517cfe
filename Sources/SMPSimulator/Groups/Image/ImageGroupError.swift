/// Image group error codes used by the simulator (`enum img_mgmt_err_code_t`).
enum ImageGroupError {
    static let hashNotFound: Int64 = 8
    static let noFreeSlot: Int64 = 9
    static let invalidSlot: Int64 = 14
    static let invalidOffset: Int64 = 20
    static let invalidLength: Int64 = 21
    static let invalidImageHeader: Int64 = 22
    static let invalidImageHeaderMagic: Int64 = 23
    static let invalidHash: Int64 = 24
    static let invalidFlashAddress: Int64 = 25
    static let currentVersionIsNewer: Int64 = 27
    static let imageAlreadyPending: Int64 = 28
    static let imageTooLarge: Int64 = 30
    static let dataOverrun: Int64 = 31
    static let settingTestToActiveDenied: Int64 = 33
}
