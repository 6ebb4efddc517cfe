#!/usr/bin/env python3
"""The library names no smpctl command or option (docs/architecture.md, "the CLI names its commands").

Scans the string literals of every Swift file under Sources/ except the CLI (Sources/smpctl) and the
fuzzers, and fails on:
  - a command line of smpctl ("smpctl ports", "`smpctl upgrade …`"): the library carries the step
    typed (SMPNextStep) and the CLI names its command;
  - one of smpctl's long options ("--restart", "--via-bootloader"): the library names a setting by
    its own API (UpgradeSettingNames) and the CLI spells it;
unless the same literal names the other tool whose option it is (imgtool, nrfutil, west).
smpctl's options are read from docs/options.md, the generated option table.

  check_library_wording.py            check the repository; exit 1 listing each offending literal
  check_library_wording.py --self-test  show that a planted offence is caught and a clean text passes
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[3]
OTHER_TOOLS = ("imgtool", "nrfutil", "west ")
# Literals that are data sent to a device, not words to a user.
SENT_TO_DEVICE = {"smpctl ports --probe", "smpctl"}
LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
COMMAND = re.compile(r"(?<![-/])\bsmpctl\b(?![-/.])")


def smpctl_options() -> set[str]:
    table = (ROOT / "docs" / "options.md").read_text(encoding="utf-8")
    options = set(re.findall(r"^\| `(--[a-z0-9-]+)` \|", table, flags=re.MULTILINE))
    if len(options) < 50:
        sys.exit(f"error: docs/options.md lists only {len(options)} options; is it the generated table?")
    return options - {"--help", "--version"}


def offences(text: str, options: set[str]) -> list[str]:
    found = []
    for line in text.splitlines():
        code = line.strip()
        if code.startswith("//"):
            continue
        for literal in LITERAL.findall(code):
            if literal in SENT_TO_DEVICE:
                continue
            if COMMAND.search(literal):
                found.append(f"names smpctl: \"{literal}\"")
                continue
            if any(tool in literal for tool in OTHER_TOOLS):
                continue
            named = sorted(o for o in options if re.search(re.escape(o) + r"(?![a-z0-9-])", literal))
            if named:
                found.append(f"names smpctl's {', '.join(named)}: \"{literal}\"")
    return found


def main() -> int:
    options = smpctl_options()
    if sys.argv[1:] == ["--self-test"]:
        planted = 'let hint = "add --via-bootloader, or run `smpctl image list`"\n/// "--restart" in a doc comment\n'
        clean = 'let a = "imgtool sign: --key"\nlet b = "add `viaBootloader`"\n'
        caught, passed = offences(planted, options), offences(clean, options)
        if len(caught) != 1 or passed:
            print(f"error: self-test: planted {caught}, clean {passed}", file=sys.stderr)
            return 1
        print("self-test: a planted offence is caught, a clean text passes", flush=True)
        return 0
    failures = []
    for path in sorted((ROOT / "Sources").rglob("*.swift")):
        relative = path.relative_to(ROOT)
        if relative.parts[1] == "smpctl" or relative.parts[1].endswith("Fuzzer"):
            continue
        failures += [f"{relative}: {o}" for o in offences(path.read_text(encoding="utf-8"), options)]
    for failure in failures:
        print(failure, file=sys.stderr)
    if failures:
        print(f"error: {len(failures)} library strings name smpctl's commands or options; carry the step typed "
              "(SMPNextStep, UpgradeSettingNames) and let Sources/smpctl name it", file=sys.stderr)
        return 1
    print(f"library wording: no smpctl command or option named outside Sources/smpctl ({len(options)} options known)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
