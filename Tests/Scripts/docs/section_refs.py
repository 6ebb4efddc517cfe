#!/usr/bin/env python3
"""Section references ("\u00a7N.M") in the sources and docs, and the headings they point at.

The protocol facts the code relies on live in docs/protocol/*.md, one numbered heading per section
(for example "### 4.3 Image upload (command 1, write)"); a section number appears in exactly one
file. A reference is written in one of these forms:

    docs/protocol/images.md <S>4.3          a file path (from the repository root or from the
                                            referencing file's folder), then the section
    [<S>4.3](images.md#43-image-upload)     a Markdown link; the anchor, when given, must be the
                                            heading's GitHub anchor
    <S>4.3                                  bare: inside docs/protocol, a section of the same file;
                                            elsewhere resolved by number (an error with --strict)

(<S> stands for the section sign.) A bare reference right after another one, separated only by a
comma, "and", "or", ";" or "/", belongs to the same file as that one (`images.md <S>4.2, <S>4.3`).
Ranges (<S>9.3-9.5, with a hyphen or an en dash) check both ends; "<S>4.3 step 12" also checks that
the section has a numbered list item 12. References to RFC sections ("RFC 8949 <S>8") are not ours
and are skipped. smp-protocol.md is not in the repository: a reference naming it is an error.

    section_refs.py check [--strict] [PATH...]     report references that do not resolve
    section_refs.py rewrite [--write] [PATH...]    point bare and smp-protocol.md references at
                                                   the file holding the section (a diff, or the
                                                   files rewritten in place with --write)

PATH defaults to Sources, Tests, docs, Benchmarks and README.md. rewrite never touches
docs/protocol itself.
"""

import argparse
import difflib
import os
import re
import sys
from dataclasses import dataclass, field

SECTION = "\u00a7"
NUMBER = r"\d+(?:\.\d+)*"
REFERENCE = re.compile(
    SECTION + r"\s?(?P<number>" + NUMBER + r")"
    r"(?:\s?[\u2013-]\s?(?P<last>" + NUMBER + r"))?"
    r"(?:\s+step\s+(?P<step>\d+))?"
)
HEADING = re.compile(r"^#{1,6}\s+(?P<number>" + NUMBER + r")\.?\s+\S")
ANY_HEADING = re.compile(r"^#{1,6}\s+(?P<title>.+?)\s*#*\s*$")
RFC_BEFORE = re.compile(r"RFC\s*\d+,?\s*$")
FILE_BEFORE = re.compile(r"`?(?P<path>[\w./-]+\.md)`?\s*$")
LINK_AFTER = re.compile(r"\]\((?P<target>[^)\s]*)\)")
SEPARATOR = re.compile(r"^\s*(?:,|;|/|and|or)\s*$")
PROTOCOL_NOTES_AFTER = re.compile(r"^ of the protocol notes")
EXTERNAL_DOCUMENT = "smp-protocol.md"
PROTOCOL_DIR = os.path.join("docs", "protocol")
DEFAULT_PATHS = ["Sources", "Tests", "docs", "Benchmarks", "README.md"]
SKIPPED_DIRS = {"fuzz-artifacts", "node_modules"}


def github_anchor(title):
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", title.strip().lower())
    return text.replace(" ", "-")


@dataclass
class Section:
    path: str
    line: int
    number: str
    anchor: str
    body: list = field(default_factory=list)

    def has_step(self, step):
        return any(re.match(r"\s*" + re.escape(step) + r"\.\s", line) for line in self.body)


@dataclass
class Reference:
    path: str
    line: int
    start: int
    end: int
    text: str
    number: str
    last: str
    step: str
    qualifier: str  # the file as written, "" when bare
    qualifier_start: int
    link_target: str  # a Markdown link's target, "" when none
    link_end: int
    inherited: bool


class Repository:
    def __init__(self, root):
        self.root = os.path.abspath(root)
        self.sections = {}  # number -> Section
        self.by_file = {}  # relative path -> {number: Section}
        self.problems = []
        self._read_headings()

    def relative(self, path):
        return os.path.relpath(os.path.abspath(path), self.root)

    def _read_headings(self):
        folder = os.path.join(self.root, PROTOCOL_DIR)
        if not os.path.isdir(folder):
            self.problems.append(f"{PROTOCOL_DIR}: the folder is missing")
            return
        for name in sorted(os.listdir(folder)):
            if name.endswith(".md"):
                self.read_file_headings(os.path.join(PROTOCOL_DIR, name))

    def read_file_headings(self, relative_path):
        if relative_path in self.by_file:
            return self.by_file[relative_path]
        sections = {}
        current = None
        with open(os.path.join(self.root, relative_path), encoding="utf-8") as handle:
            for index, line in enumerate(handle, start=1):
                heading = HEADING.match(line)
                if heading:
                    title = ANY_HEADING.match(line).group("title")
                    current = Section(relative_path, index, heading.group("number"), github_anchor(title))
                    number = current.number
                    if number in sections:
                        self.problems.append(f"{relative_path}:{index}: section {number} appears twice in the file")
                    sections[number] = current
                    if relative_path.startswith(PROTOCOL_DIR + os.sep):
                        other = self.sections.get(number)
                        if other is not None and other.path != relative_path:
                            self.problems.append(
                                f"{relative_path}:{index}: section {number} is also in {other.path}:{other.line}; "
                                "a number must live in one file")
                        self.sections.setdefault(number, current)
                elif current is not None:
                    current.body.append(line)
        self.by_file[relative_path] = sections
        return sections

    def file_for(self, number):
        section = self.sections.get(number)
        return section.path if section else None


def source_files(repository, paths):
    for path in paths:
        absolute = os.path.join(repository.root, path)
        if os.path.isfile(absolute):
            yield repository.relative(absolute)
            continue
        for directory, folders, files in os.walk(absolute):
            folders[:] = sorted(f for f in folders if not f.startswith(".") and f not in SKIPPED_DIRS)
            for name in sorted(files):
                yield repository.relative(os.path.join(directory, name))


def read_lines(repository, relative_path):
    try:
        with open(os.path.join(repository.root, relative_path), encoding="utf-8") as handle:
            return handle.read().splitlines(keepends=True)
    except (UnicodeDecodeError, OSError):
        return None


def references_in_line(relative_path, number, line):
    found = []
    previous = None
    for match in REFERENCE.finditer(line):
        before = line[: match.start()]
        if RFC_BEFORE.search(before):
            previous = None
            continue
        qualifier, qualifier_start, inherited = "", match.start(), False
        file_match = FILE_BEFORE.search(before)
        if file_match:
            qualifier, qualifier_start = file_match.group("path"), file_match.start()
        elif previous is not None and SEPARATOR.match(line[previous.end: match.start()]):
            qualifier, inherited = previous.qualifier, True
        link_target, link_end = "", match.end()
        link = LINK_AFTER.match(line, match.end())
        opened = before[:qualifier_start].endswith("[") if qualifier and not inherited else before.endswith("[")
        if link and opened:
            link_target, link_end = link.group("target"), link.end()
        reference = Reference(
            relative_path, number, match.start(), match.end(), match.group(0), match.group("number"),
            match.group("last") or "", match.group("step") or "", qualifier, qualifier_start,
            link_target, link_end, inherited)
        found.append(reference)
        previous = reference
    return found


def find_references(repository, paths):
    for relative_path in source_files(repository, paths):
        lines = read_lines(repository, relative_path)
        if lines is None or not any(SECTION in line for line in lines):
            continue
        for index, line in enumerate(lines, start=1):
            if SECTION in line:
                yield from references_in_line(relative_path, index, line)


def resolve_path(repository, referencing_path, written):
    for base in (os.path.dirname(referencing_path), ""):
        candidate = os.path.normpath(os.path.join(base, written))
        if not candidate.startswith(".." + os.sep) and os.path.isfile(os.path.join(repository.root, candidate)):
            return candidate
    return None


def check_reference(repository, reference, strict):
    """Problems with one reference (an empty list when it resolves)."""
    where = f"{reference.path}:{reference.line}: {reference.text.strip()}"
    in_protocol = reference.path.startswith(PROTOCOL_DIR + os.sep)
    anchor = ""
    if reference.link_target:
        target, _, anchor = reference.link_target.partition("#")
        written = target or reference.path
    else:
        written = reference.qualifier
    if os.path.basename(written) == EXTERNAL_DOCUMENT:
        return [f"{where}: points at {EXTERNAL_DOCUMENT}, which is not in the repository; "
                "run Tests/Scripts/rewrite-section-refs.sh"]
    if written:
        target_path = reference.path if written == reference.path else resolve_path(repository, reference.path, written)
        if target_path is None:
            return [f"{where}: {written} does not exist (from {reference.path})"]
        sections = repository.read_file_headings(target_path)
    elif in_protocol:
        target_path = reference.path
        sections = repository.by_file.get(reference.path, {})
        if reference.number not in sections and not strict:
            other = repository.file_for(reference.number)
            if other is not None:
                target_path, sections = other, repository.by_file[other]
    else:
        target_path = repository.file_for(reference.number)
        if target_path is None:
            return [f"{where}: no heading numbered {reference.number} in {PROTOCOL_DIR}"]
        if strict:
            return [f"{where}: names no file (section {reference.number} is in {target_path}); "
                    "run Tests/Scripts/rewrite-section-refs.sh"]
        sections = repository.by_file[target_path]
    problems = []
    for number in filter(None, [reference.number, reference.last]):
        if number not in sections:
            problems.append(f"{where}: {target_path} has no heading numbered {number}")
    section = sections.get(reference.number)
    if section is not None and anchor and anchor != section.anchor:
        problems.append(f"{where}: anchor #{anchor} is not the heading's (#{section.anchor})")
    if section is not None and reference.step and not section.has_step(reference.step):
        problems.append(f"{where}: section {reference.number} in {target_path} has no step {reference.step}")
    return problems


def check(repository, paths, strict):
    problems = list(repository.problems)
    count = 0
    for reference in find_references(repository, paths):
        count += 1
        problems.extend(check_reference(repository, reference, strict))
    for problem in problems:
        print(problem.replace(SECTION, "\u00a7"), file=sys.stderr)
    status = "ok" if not problems else f"{len(problems)} problem(s)"
    print(f"section references: {count} checked in {', '.join(paths)}: {status}")
    return 1 if problems else 0


def replacement(repository, reference, target, markdown):
    """The text that replaces a reference (its qualifier included) so that it names `target`."""
    if markdown:
        section = repository.sections[reference.number]
        link = os.path.relpath(os.path.join(repository.root, target),
                               os.path.join(repository.root, os.path.dirname(reference.path)))
        shown = reference.text
        step = ""
        if reference.step:
            shown = shown[: shown.rindex("step")].rstrip()
            step = reference.text[len(shown):]
        return f"[{shown}]({link}#{section.anchor}){step}"
    return f"{target} {reference.text}"


def rewrite_line(repository, line, references, problems):
    edits = []
    previous_target = None
    for reference in references:
        written = os.path.basename(reference.qualifier) if reference.qualifier else ""
        if reference.link_target or (written and written != EXTERNAL_DOCUMENT):
            previous_target = None
            continue
        target = repository.file_for(reference.number)
        if target is None:
            problems.append(f"{reference.path}:{reference.line}: no section {reference.number} in {PROTOCOL_DIR}; left as is")
            previous_target = None
            continue
        if reference.last and repository.file_for(reference.last) != target:
            problems.append(f"{reference.path}:{reference.line}: {reference.number} and {reference.last} are in different files")
        markdown = reference.path.endswith(".md")
        start = reference.start if reference.inherited else reference.qualifier_start
        end = reference.end
        notes = PROTOCOL_NOTES_AFTER.match(line[end:])
        if notes:
            end += notes.end()
        if reference.inherited and not markdown and target == previous_target:
            text = reference.text
        else:
            text = replacement(repository, reference, target, markdown)
        edits.append((start, end, text))
        previous_target = target
    for start, end, text in reversed(edits):
        line = line[:start] + text + line[end:]
    return line


def rewrite(repository, paths, write):
    problems = []
    changed = 0
    by_file = {}
    for reference in find_references(repository, paths):
        if reference.path.startswith(PROTOCOL_DIR + os.sep):
            continue
        by_file.setdefault(reference.path, {}).setdefault(reference.line, []).append(reference)
    for relative_path, by_line in by_file.items():
        lines = read_lines(repository, relative_path)
        new_lines = list(lines)
        for number, references in by_line.items():
            new_lines[number - 1] = rewrite_line(repository, lines[number - 1], references, problems)
        if new_lines == lines:
            continue
        changed += 1
        if write:
            with open(os.path.join(repository.root, relative_path), "w", encoding="utf-8") as handle:
                handle.writelines(new_lines)
        else:
            sys.stdout.writelines(difflib.unified_diff(lines, new_lines, "a/" + relative_path, "b/" + relative_path))
    for problem in problems:
        print(problem, file=sys.stderr)
    verb = "rewritten" if write else "would change (run with --write to apply)"
    print(f"section references: {changed} file(s) {verb}", file=sys.stderr)
    return 1 if problems else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."),
                        help="the repository (default: the one holding this script)")
    commands = parser.add_subparsers(dest="command", required=True)
    checking = commands.add_parser("check", help="report references that do not resolve")
    checking.add_argument("--strict", action="store_true", help="every reference outside a section's own file names its file")
    checking.add_argument("paths", nargs="*")
    rewriting = commands.add_parser("rewrite", help="make references name the file holding their section")
    rewriting.add_argument("--write", action="store_true", help="rewrite the files in place (default: print a diff)")
    rewriting.add_argument("paths", nargs="*")
    arguments = parser.parse_args()
    repository = Repository(arguments.root)
    paths = arguments.paths or [p for p in DEFAULT_PATHS if os.path.exists(os.path.join(repository.root, p))]
    for path in paths:
        if not os.path.exists(os.path.join(repository.root, path)):
            print(f"error: {path} does not exist in {repository.root}; give paths relative to the repository root",
                  file=sys.stderr)
            return 2
    if arguments.command == "check":
        return check(repository, paths, arguments.strict)
    return rewrite(repository, paths, arguments.write)


if __name__ == "__main__":
    sys.exit(main())
