#!/usr/bin/env python3
"""Writes an app's `retentionRules` in tenants/manifest.schema.json from api-spec/openrpc.json, where
`retention.rules.set` documents them (ManifestSchemaTests fails until the two agree)."""
import json
import pathlib

root = pathlib.Path(__file__).resolve().parents[2]
openrpc = json.loads((root / "api-spec" / "openrpc.json").read_text())
items = next(
    param["schema"]["items"]
    for method in openrpc["methods"] if method["name"] == "retention.rules.set"
    for param in method["params"] if param["name"] == "rules"
)
path = root / "tenants" / "manifest.schema.json"
text = path.read_text()
# The member's object, found by matching braces (strings skipped), is replaced in place: the rest of the
# file keeps its hand-made layout.
start = text.index("{", text.index('"retentionRules": '))
depth, i = 0, start
while True:
    c = text[i]
    if c == '"':
        i += 1
        while text[i] != '"':
            i += 2 if text[i] == "\\" else 1
    elif c == "{":
        depth += 1
    elif c == "}":
        depth -= 1
        if depth == 0:
            break
    i += 1
entry = json.loads(text[start:i + 1])
entry["items"] = items
lines = json.dumps(entry, indent=2, ensure_ascii=False).split("\n")
path.write_text(text[:start] + "\n".join(lines[:1] + ["          " + line for line in lines[1:]]) + text[i + 1:])
json.loads(path.read_text())
print("tenants/manifest.schema.json: retentionRules written from api-spec/openrpc.json")
