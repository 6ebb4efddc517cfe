#!/usr/bin/env python3
"""Checks SUIT envelopes against the SUIT manifest draft's CDDL (suit-manifest.cddl beside this
script) with pycddl, a CDDL validator we did not write (pinned in Tests/Scripts/requirements.txt).

Usage: check_envelope_cddl.py FILE...      a .suit envelope, or a dfu_suit.zip-like package
                                           (each .suit member is checked)
       check_envelope_cddl.py --self-test  checks that broken envelopes are found invalid

Each envelope is checked whole against SUIT_Envelope_Tagged: pycddl follows the `bstr .cbor`
members, so the authentication wrapper (SUIT_Authentication, SUIT_Digest), the manifest
(SUIT_Manifest) and its common section (SUIT_Common) are checked with it. The commands inside
command sequences are not (the crate under pycddl cannot; see the "smpctl:" notes in the CDDL
file), nor are signatures or digests. Error locations are CBOR paths: /3/2 is the manifest's
(envelope key 3) sequence number (manifest key 2).

Prints one JSON object: {"files": {NAME: {"valid": bool, "error": str|null}}}, NAME being the
file's path, or PATH:MEMBER for a package's member. Exits 1 if any is invalid, 2 on usage errors.
"""

import json
import os
import re
import sys
import zipfile

import cbor2
import pycddl

CDDL_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "suit-manifest.cddl")

class Invalid(Exception):
    """An envelope that does not match the CDDL; the message names the rule and the place."""


def schema_for(cddl, rule):
    """pycddl validates against the first rule: move `rule`'s definition (up to the next blank
    line) to the front."""
    match = re.search(rf"^{re.escape(rule)} =\s.*?(?=\n\n|\Z)", cddl, re.MULTILINE | re.DOTALL)
    if match is None:
        raise SystemExit(f"{CDDL_PATH} defines no rule {rule}")
    return pycddl.Schema(match.group(0) + "\n\n" + cddl[: match.start()] + cddl[match.end():])


class Checker:
    def __init__(self, cddl):
        self.envelope = schema_for(cddl, "SUIT_Envelope_Tagged")

    def check(self, data):
        """Raises Invalid, or returns for an envelope that matches SUIT_Envelope_Tagged."""
        try:
            self.envelope.validate_cbor(data)
        except pycddl.ValidationError as error:
            raise Invalid(f"does not match SUIT_Envelope_Tagged: {first_lines(error)}") from None


def first_lines(error, count=3):
    lines = [line for line in str(error).splitlines() if line.strip()]
    more = f" (and {len(lines) - count} more)" if len(lines) > count else ""
    return "; ".join(lines[:count]) + more


def envelopes(path):
    """(name, bytes) for a .suit file, or for each .suit member of a ZIP package."""
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as archive:
            members = [name for name in archive.namelist() if name.endswith(".suit")]
            if not members:
                raise Invalid(f"{path} is a ZIP file with no .suit member")
            return [(f"{path}:{name}", archive.read(name)) for name in members]
    with open(path, "rb") as f:
        return [(path, f.read())]


def check_files(checker, paths):
    results = {}
    for path in paths:
        try:
            found = envelopes(path)
        except (OSError, Invalid, zipfile.BadZipFile) as error:
            results[path] = {"valid": False, "error": str(error)}
            continue
        for name, data in found:
            try:
                checker.check(data)
                results[name] = {"valid": True, "error": None}
            except Invalid as error:
                results[name] = {"valid": False, "error": f"{name}: {error}"}
    return results


def self_test(checker):
    """A good envelope must pass and each broken one must fail."""
    def envelope(manifest):
        wrapper = cbor2.dumps([cbor2.dumps([-16, bytes(32)])])
        return cbor2.dumps(cbor2.CBORTag(107, {2: wrapper, 3: cbor2.dumps(manifest)}))

    common = cbor2.dumps({2: [[b"MEM", b"\x02"]], 4: cbor2.dumps([20, {1: bytes(16)}, 1, 15])})
    install = cbor2.dumps([20, {21: "file://app.bin"}, 21, 15])
    cases = {
        "good": (True, envelope({1: 1, 2: 7, 3: common, 20: install})),
        "sequence number as text": (False, envelope({1: 1, 2: "7", 3: common, 20: install})),
        "no common section": (False, envelope({1: 1, 2: 7, 20: install})),
        "manifest version 2": (False, envelope({1: 2, 2: 7, 3: common, 20: install})),
        "suit-install under the pre-draft-28 key 17": (False, envelope({1: 1, 2: 7, 3: common, 17: install})),
        "digest algorithm as text": (False, cbor2.dumps(cbor2.CBORTag(107, {
            2: cbor2.dumps([cbor2.dumps(["sha-256", bytes(32)])]),
            3: cbor2.dumps({1: 1, 2: 7, 3: common, 20: install})}))),
    }
    results, passed = {}, True
    for name, (expected, data) in cases.items():
        try:
            checker.check(data)
            error = None
        except Invalid as failure:
            error = str(failure)
        results[name] = {"valid": error is None, "error": error}
        passed = passed and (error is None) == expected
    return results, passed


def main(arguments):
    if not arguments or arguments[0] in ("-h", "--help"):
        print(__doc__, file=sys.stderr)
        return 2
    with open(CDDL_PATH) as f:
        checker = Checker(f.read())
    if arguments == ["--self-test"]:
        results, passed = self_test(checker)
        json.dump({"files": results, "selfTestPassed": passed}, sys.stdout, indent=1)
        print()
        return 0 if passed else 1
    options = [argument for argument in arguments if argument.startswith("-")]
    if options:
        print(f"unknown option {options[0]}\n{__doc__}", file=sys.stderr)
        return 2
    results = check_files(checker, arguments)
    json.dump({"files": results}, sys.stdout, indent=1)
    print()
    return 0 if all(result["valid"] for result in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
