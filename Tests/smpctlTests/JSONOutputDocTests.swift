import Foundation
import SMPTestSupport
import XCTest

/// docs/json-output.md: its examples are valid JSON documents of the documented shape.
final class JSONOutputDocTests: XCTestCase {
    func testEveryCompleteExampleIsOneValidJSONObject() throws {
        let url = ExternalTool.packageRoot.appendingPathComponent("docs/json-output.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        // Example documents are whole lines starting with {"; shortened ones contain "…".
        let examples = text.split(separator: "\n").map(String.init).filter { $0.hasPrefix("{\"") && !$0.contains("…") }
        XCTAssertGreaterThan(examples.count, 25, "examples found: \(examples.count)")
        for example in examples {
            let run = SMPCtlRun(arguments: [], status: 0, stdout: example + "\n", stderr: "", seconds: 0, timedOut: false)
            let document = try run.jsonDocument()
            if let error = document["error"], document["response"] == nil {
                XCTAssertEqual(document.keys, ["error"], example)
                XCTAssertNotNil(error["kind"]?.string, example)
                XCTAssertNotNil(error["exitCode"]?.int, example)
                XCTAssertNotNil(error["message"]?.string, example)
            }
        }
    }
}
