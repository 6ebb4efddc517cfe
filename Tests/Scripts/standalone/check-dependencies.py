#!/usr/bin/env python3
"""Checks Package.swift against the sources: every declared dependency of a target is imported
by at least one of its files, and every module of this package or of a declared package product
that a target imports is declared (not reached only through another target).

    swift package dump-package | python3 Tests/Scripts/standalone/check-dependencies.py

Exits 1 and names each target and module that disagree.
"""
import glob
import json
import re
import sys

IMPORT = re.compile(r"\s*(?:@testable |@_exported |@preconcurrency )*import (?:(?:struct|class|enum|func|protocol) )?([A-Za-z_][A-Za-z0-9_]*)")


def target_path(target):
    if target.get("path"):
        return target["path"]
    return ("Tests/" if target["type"] == "test" else "Sources/") + target["name"]


def dependency_name(dependency):
    for kind in ("byName", "target", "product"):
        if kind in dependency:
            return dependency[kind][0]
    raise ValueError(f"unknown dependency form: {dependency}")


def imports_of(path):
    modules = set()
    for file in glob.glob(f"{path}/**/*.swift", recursive=True):
        with open(file, encoding="utf-8") as source:
            for line in source:
                match = IMPORT.match(line)
                if match:
                    modules.add(match.group(1))
    return modules


def main():
    package = json.load(sys.stdin)
    targets = [target for target in package["targets"] if target["type"] != "system"]
    known = {target["name"] for target in package["targets"]}
    for target in targets:
        for dependency in target["dependencies"]:
            if "product" in dependency:
                known.add(dependency["product"][0])
    problems = []
    for target in targets:
        declared = {dependency_name(dependency) for dependency in target["dependencies"]}
        if not glob.glob(f"{target_path(target)}/**/*.swift", recursive=True):
            problems.append(f"{target['name']}: no Swift file under {target_path(target)}")
            continue
        imported = imports_of(target_path(target))
        for module in sorted(declared - imported):
            problems.append(f"{target['name']}: declares {module} but no file imports it")
        for module in sorted((imported & known) - declared - {target["name"]}):
            problems.append(f"{target['name']}: imports {module} without declaring it")
    for problem in problems:
        print(f"check-dependencies: {problem}", file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f"    {len(targets)} targets: every declared dependency imported, every imported module declared")


if __name__ == "__main__":
    main()
