#!/usr/bin/env python3
"""Validates smpctl's real --json output against docs/schema/v1/smpctl.schema.json.

usage: validate_json_output.py SCHEMA SAMPLES [--require-every-command]

SAMPLES is a JSON array of {"label", "definition", "text"}: the standard output of one smpctl run
(one document, or JSON lines for a stream) and the $defs entry each of its lines must match.
The examples in the schema (shown in docs/json-output.md) are checked too. Prints one line per
problem and exits 1 when there is any; with --require-every-command, a
definition that names a command (x-smpctl-command) but has no sample is a problem too.
"""
import json
import sys

from jsonschema import Draft202012Validator


def main():
    arguments = [a for a in sys.argv[1:] if not a.startswith("--")]
    require_every_command = "--require-every-command" in sys.argv
    with open(arguments[0], encoding="utf-8") as f:
        schema = json.load(f)
    with open(arguments[1], encoding="utf-8") as f:
        samples = json.load(f)
    Draft202012Validator.check_schema(schema)
    definitions = schema["$defs"]
    problems = []
    sampled = set()
    for sample in samples:
        name = sample["definition"]
        label = sample["label"]
        if name not in definitions:
            problems.append(f"{label}: no definition {name!r} in the schema")
            continue
        sampled.add(name)
        validator = Draft202012Validator({"$defs": definitions, "$ref": f"#/$defs/{name}"})
        lines = sample["text"].splitlines()
        if not lines:
            problems.append(f"{label}: no output")
        for number, line in enumerate(lines, 1):
            try:
                document = json.loads(line)
            except ValueError as error:
                problems.append(f"{label}: line {number} is not JSON ({error}): {line[:200]}")
                continue
            for error in sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path)):
                path = "/".join(str(p) for p in error.absolute_path) or "(document)"
                problems.append(f"{label}: line {number} ({name}) at {path}: {error.message[:300]}")
    for name, definition in definitions.items():
        validator = Draft202012Validator({"$defs": definitions, "$ref": f"#/$defs/{name}"})
        for number, example in enumerate(definition.get("examples", []), 1):
            for error in validator.iter_errors(example):
                path = "/".join(str(p) for p in error.absolute_path) or "(document)"
                problems.append(f"the schema's example {number} of {name} at {path}: {error.message[:300]}")
    if require_every_command:
        for name, definition in sorted(definitions.items()):
            if "x-smpctl-command" in definition and name not in sampled:
                problems.append(f"{name} ({definition['x-smpctl-command']}): no command run checked it")
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
