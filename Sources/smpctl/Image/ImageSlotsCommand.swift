import ArgumentParser
import JSON
import SMP

/// `smpctl image slots`
struct ImageSlotsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "slots", abstract: "Show each image's slots: size and the image number that uploads to them.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await global.withClient { client, output in
            let (json, human) = Self.render(try await client.send(ImageSlotInfo()))
            output.emit(json, human: human)
        }
    }

    /// The slot info as a JSON document and as a table.
    static func render(_ images: [ImageSlotInfo.Image]) -> (JSONValue, String) {
        var table = Table(["IMAGE", "SLOT", "SIZE", "UPLOAD ID", "MAX IMAGE"], alignments: [.right, .right, .right, .right, .right])
        for image in images {
            for slot in image.slots {
                table.add([
                    String(image.image), String(slot.slot), slot.size.map(String.init) ?? "-",
                    slot.uploadImageID.map(String.init) ?? "-", image.maxImageSize.map(String.init) ?? "-",
                ])
            }
        }
        let document = JSONValue.object([("images", .array(images.map { image in
            .object([
                ("image", .uint(image.image)),
                ("slots", .array(image.slots.map { slot in
                    .object([
                        ("slot", .uint(slot.slot)), ("size", slot.size.map(JSONValue.uint) ?? .null),
                        ("uploadImageId", slot.uploadImageID.map(JSONValue.uint) ?? .null),
                        ("rc", slot.rc.map(JSONValue.int) ?? .null),
                    ])
                })),
                ("maxImageSize", image.maxImageSize.map(JSONValue.uint) ?? .null),
            ])
        }))])
        return (document, images.isEmpty ? "no images" : table.rendered)
    }
}
