import Foundation

/// The `smpctl` commands of README.md and docs/*.md: every command line of a `sh`/`bash`/`console`
/// code block (in `console` and untyped blocks the lines after `$ `), with the output the doc
/// shows after it, and the HTML comments before its block that say how to run it:
///
/// - `<!-- transcript: simulate --mynewt -->`: against `smpctl simulate` with these options;
/// - `<!-- transcript: fixture udp -->`: against the native_sim fixture of that configuration;
/// - `<!-- transcript: as written -->`: connection strings are not replaced (error examples);
/// - `<!-- transcript: exact -->`: the whole output shown is compared, line by line;
/// - `<!-- not run: REASON -->` or `<!-- not run "TEXT": REASON -->`: the block's commands (those
///   holding TEXT) are not run; the reason is required.
struct DocTranscript {
    /// One documented command.
    struct Command {
        var file: String
        var line: Int
        /// The line of the block's opening fence: commands with the same one share a block.
        var block: Int
        /// The command line as written (continuations joined), without a `$ ` prompt.
        var text: String
        /// The output the doc shows under it (console blocks), possibly empty.
        var output: [String]
        /// The block's `transcript:` directives.
        var directives: [String]
        /// Why it is not run, when the doc says so.
        var notRun: String?

        /// `docs/x.md:12: smpctl …`, for failure messages.
        var location: String { "\(file):\(line): \(text)" }
    }

    /// A marker that could not be read (a `not run` without a reason).
    struct MarkerError: Error, CustomStringConvertible {
        var description: String
    }

    /// The markdown files read: README.md and docs/*.md, relative to `root`.
    static func documents(root: URL) throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        return ["README.md"] + docs
    }

    /// Every command of `file` (a path relative to `root`).
    static func commands(in file: String, root: URL) throws -> [Command] {
        let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        var commands: [Command] = []
        var directives: [String] = []
        var notRun: [(pattern: String?, reason: String)] = []
        var block: String?
        var blockLine = 0
        var index = 0
        while index < lines.count {
            let line = lines[index]
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                if block == nil {
                    block = String(trimmed.dropFirst(3)).trimmingCharacters(in: .whitespaces)
                    blockLine = index + 1
                } else {
                    block = nil
                    directives = []
                    notRun = []
                }
                index += 1
                continue
            }
            guard let language = block else {
                if trimmed.hasPrefix("<!--"), let marker = try marker(trimmed, file: file, line: index + 1) {
                    switch marker {
                    case .directive(let text): directives.append(text)
                    case .notRun(let pattern, let reason): notRun.append((pattern, reason))
                    }
                } else if !trimmed.isEmpty && !trimmed.hasPrefix("<!--") {
                    directives = []
                    notRun = []
                }
                index += 1
                continue
            }
            let prompted = ["console", "", "text"].contains(language)
            guard ["sh", "bash", "shell", "console", "", "text"].contains(language),
                let start = commandStart(trimmed, prompted: prompted)
            else {
                index += 1
                continue
            }
            var command = start
            let first = index
            while command.hasSuffix("\\"), index + 1 < lines.count {
                index += 1
                command = String(command.dropLast()) + " " + lines[index].trimmingCharacters(in: .whitespaces)
            }
            index += 1
            var output: [String] = []
            if prompted {
                while index < lines.count {
                    let next = lines[index].trimmingCharacters(in: .whitespaces)
                    if next.hasPrefix("```") || next.hasPrefix("$ ") { break }
                    output.append(lines[index])
                    index += 1
                }
                while output.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { output.removeLast() }
            }
            let reason = notRun.first { $0.pattern.map { command.contains($0) } ?? true }?.reason
            commands.append(Command(file: file, line: first + 1, block: blockLine, text: command, output: output, directives: directives, notRun: reason))
        }
        return commands
    }

    private enum Marker {
        case directive(String)
        case notRun(pattern: String?, reason: String)
    }

    private static func marker(_ comment: String, file: String, line: Int) throws -> Marker? {
        guard comment.hasSuffix("-->") else { return nil }
        let body = comment.dropFirst(4).dropLast(3).trimmingCharacters(in: .whitespaces)
        if body.hasPrefix("transcript:") {
            return .directive(body.dropFirst("transcript:".count).trimmingCharacters(in: .whitespaces))
        }
        guard body.hasPrefix("not run") else { return nil }
        var rest = body.dropFirst("not run".count).trimmingCharacters(in: .whitespaces)
        var pattern: String?
        if rest.hasPrefix("\""), let close = rest.dropFirst().firstIndex(of: "\"") {
            pattern = String(rest[rest.index(after: rest.startIndex)..<close])
            rest = String(rest[rest.index(after: close)...]).trimmingCharacters(in: .whitespaces)
        }
        let reason = rest.hasPrefix(":") ? rest.dropFirst().trimmingCharacters(in: .whitespaces) : ""
        guard !reason.isEmpty else {
            throw MarkerError(description: "\(file):\(line): a `not run` marker needs a reason: <!-- not run: needs a BLE adapter -->")
        }
        return .notRun(pattern: pattern, reason: reason)
    }

    /// The command on a block line: `smpctl …` (after `$ ` in prompted blocks); nil for other lines.
    private static func commandStart(_ line: String, prompted: Bool) -> String? {
        var text = Substring(line)
        if prompted {
            guard text.hasPrefix("$ ") else { return nil }
            text = text.dropFirst(2)
        }
        guard text.hasPrefix("smpctl ") || text == "smpctl" else { return nil }
        return String(text)
    }
}
