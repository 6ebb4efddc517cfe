import Foundation

/// The checks scenarios are made of; each returns the problems it finds.
enum Expect {
    /// Exit 0, and the last line of standard output a JSON object that `json` accepts.
    static func success(_ json: @escaping @Sendable ([String: Any], ScenarioContext) -> [String] = { _, _ in [] }) -> StepCheck {
        { run, context in
            guard run.status == 0, !run.timedOut else { return ["expected success (exit 0)"] }
            guard let object = run.lastJSONObject else { return ["the last line of standard output is not a JSON object"] }
            return json(object, context)
        }
    }

    /// `os echo` answered `text`.
    static func echo(_ text: String) -> StepCheck {
        success { json, _ in equal(json["echo"] as? String, text, "echo") }
    }

    /// The device refused the request: exit 2 and the error's name on standard error.
    static func deviceError(_ name: String) -> StepCheck {
        { run, _ in
            var problems: [String] = []
            if run.status != 2 { problems.append("expected exit 2 (device error)") }
            if !run.stderr.contains(name) { problems.append("standard error does not name \(name)") }
            return problems
        }
    }

    /// Bad input refused before anything is sent: exit 65 and `text` on standard error.
    static func dataError(_ text: String) -> StepCheck {
        { run, _ in
            that(run.status == 65, "expected exit 65 (bad data), got \(run.status)") + that(run.stderr.contains(text), "standard error does not say \"\(text)\"")
        }
    }

    /// A request that cannot fit is refused before it is sent: a non-zero exit that is not a
    /// timeout (75), within `seconds`, with the buffer size that decided it on standard error.
    static func refusedBeforeSending(within seconds: Double, bufferSize: @escaping @Sendable (ScenarioContext) -> Int) -> StepCheck {
        { run, context in
            var problems: [String] = []
            if run.status == 0 { problems.append("expected a refusal (non-zero exit), the request went through") }
            if run.status == 64 { problems.append("expected a refusal of the request, not a usage error") }
            if run.status == 75 || run.timedOut { problems.append("expected a refusal, not a timeout") }
            if run.seconds > seconds { problems.append(String(format: "the refusal took %.1f s (at most %.0f s)", run.seconds, seconds)) }
            let size = bufferSize(context)
            if !mentionsNumber(run.stderr, size) { problems.append("standard error does not name the buffer size \(size)") }
            return problems
        }
    }

    /// Whether `text` holds `number` as a whole number (not inside a longer one such as a port).
    static func mentionsNumber(_ text: String, _ number: Int) -> Bool {
        text.split(whereSeparator: { !$0.isNumber }).contains { $0 == Substring(String(number)) }
    }

    /// `value` equals `expected`, else one problem naming `what`.
    static func equal<T: Equatable>(_ value: T?, _ expected: T, _ what: String) -> [String] {
        value == expected ? [] : ["\(what) is \(value.map { "\($0)" } ?? "missing"), expected \(expected)"]
    }

    /// `condition` holds, else the problem.
    static func that(_ condition: Bool, _ problem: @autoclosure () -> String) -> [String] {
        condition ? [] : [problem()]
    }
}

/// The management group IDs of the manifest's group names.
let manifestGroupIDs: [String: Int] = ["os": 0, "img": 1, "stat": 2, "settings": 3, "fs": 8, "shell": 9, "enum": 10, "zbasic": 63]
