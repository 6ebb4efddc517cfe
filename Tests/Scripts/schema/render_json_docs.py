#!/usr/bin/env python3
"""Renders the generated part of docs/json-output.md from docs/schema/v1/smpctl.schema.json.

usage: render_json_docs.py SCHEMA

Prints Markdown: one section per command definition (x-smpctl-command), in the schema's order,
with a table of its fields, then one section per shared object. JSONOutputDocTests compares it
with the file (SMPCTL_WRITE_DOCS=1 rewrites the file).
"""
import json
import sys


def anchor(name):
    return "object-" + name.lower()


def ref_name(schema):
    ref = schema.get("$ref", "")
    return ref.rsplit("/", 1)[-1] if ref.startswith("#/$defs/") else None


def type_text(schema, definitions):
    """The type column: JSON types, constants, enums and links to shared objects."""
    name = ref_name(schema)
    if name:
        return f"[{name}](#{anchor(name)})"
    if "const" in schema:
        return "`" + json.dumps(schema["const"]) + "`"
    types = schema.get("type", "any")
    types = types if isinstance(types, list) else [types]
    parts = []
    for kind in types:
        if kind == "array":
            parts.append("array of " + type_text(schema.get("items", {}), definitions))
        elif kind == "object" and "additionalProperties" in schema and isinstance(schema["additionalProperties"], dict):
            parts.append("object of " + type_text(schema["additionalProperties"], definitions))
        else:
            parts.append(kind)
    text = " | ".join(parts)
    if "enum" in schema:
        text += ": " + ", ".join("`" + json.dumps(v) + "`" for v in schema["enum"])
    return text


def cell(text):
    return text.replace("|", "\\|").replace("\n", " ")


def rows(schema, definitions, prefix=""):
    """Table rows for an object's properties, descending into inline objects and arrays of them."""
    out = []
    required = set(schema.get("required", []))
    for key, field in schema.get("properties", {}).items():
        if prefix == "" and key == "schemaVersion":
            continue
        path = prefix + key
        description = field.get("description", "")
        if key not in required:
            description = "(optional) " + description
        out.append(f"| `{path}` | {cell(type_text(field, definitions))} | {cell(description)} |")
        items = field.get("items", {})
        if "properties" in field:
            out += rows(field, definitions, path + ".")
        elif "properties" in items:
            out += rows(items, definitions, path + "[].")
    return out


def table(schema, definitions):
    lines = ["| field | type | meaning |", "|---|---|---|"]
    lines += rows(schema, definitions)
    return lines if len(lines) > 2 else ["(no fields)"]


def body_parts(schema, definitions):
    """The alternatives of a document: (title, object schema or None, link) for each."""
    name = ref_name(schema)
    if name:
        target = definitions[name]
        if "oneOf" in target or "properties" in target or "allOf" in target:
            return body_parts(target, definitions)
        return [(None, None, name)]
    if "allOf" in schema:
        parts = [p for p in schema["allOf"] if ref_name(p) != "schemaVersion"]
        if len(parts) == 1:
            return body_parts(parts[0], definitions)
    if "oneOf" in schema:
        out = []
        for alternative in schema["oneOf"]:
            alt_name = ref_name(alternative)
            if alt_name:
                out.append((alt_name, None, alt_name))
            else:
                for title, part, link in body_parts(alternative, definitions):
                    out.append((alternative.get("title", title), part, link))
        return out
    return [(schema.get("title"), schema, None)]


def render(schema):
    definitions = schema["$defs"]
    lines = []
    for name, definition in definitions.items():
        command = definition.get("x-smpctl-command")
        if not command:
            continue
        lines += [f"## {command}", "", f"`$defs/{name}`: {definition.get('description', '')}"]
        if definition.get("x-smpctl-lines"):
            lines.append("Printed as JSON lines: each line is one document of the kinds below.")
        lines.append("")
        if definition.get("examples"):
            lines.append("```json")
            lines += [json.dumps(example, ensure_ascii=False, separators=(",", ":")) for example in definition["examples"]]
            lines += ["```", ""]
        for title, part, link in body_parts(definition, definitions):
            if title:
                lines += [f"**{title}**", ""]
            if part is not None:
                lines += table(part, definitions) + [""]
            elif link:
                lines += [f"See [{link}](#{anchor(link)}).", ""]
    lines += ["## Shared objects", ""]
    for name, definition in definitions.items():
        if "x-smpctl-command" in definition or name == "schemaVersion":
            continue
        lines += [f'<a id="{anchor(name)}"></a>', f"### {name}", ""]
        if definition.get("description"):
            lines += [definition["description"], ""]
        for title, part, link in body_parts(definition, definitions):
            if title:
                lines += [f"**{title}**", ""]
            if part is not None:
                lines += table(part, definitions) + [""]
            elif link and link != name:
                lines += [f"See [{link}](#{anchor(link)}).", ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    sys.stdout.write(render(schema))


if __name__ == "__main__":
    main()
