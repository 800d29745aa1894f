#!/usr/bin/env python3
"""Writes an app's `retentionRules` and the tenant's `catalog` in tenants/manifest.schema.json from
api-spec/openrpc.json, where `retention.rules.set` and `catalog.get` document them (ManifestSchemaTests fails
until they agree)."""
import json
import pathlib

root = pathlib.Path(__file__).resolve().parents[2]
openrpc = json.loads((root / "api-spec" / "openrpc.json").read_text())
items = next(
    param["schema"]["items"]
    for method in openrpc["methods"] if method["name"] == "retention.rules.set"
    for param in method["params"] if param["name"] == "rules"
)
catalog = next(method["result"]["schema"] for method in openrpc["methods"] if method["name"] == "catalog.get")
path = root / "tenants" / "manifest.schema.json"


def replace_member(text, name, indent, change):
    """The member's object, found by matching braces (strings skipped), is replaced in place: the rest of
    the file keeps its hand-made layout."""
    start = text.index("{", text.index('"%s": ' % name))
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
    entry = change(json.loads(text[start:i + 1]))
    lines = json.dumps(entry, indent=2, ensure_ascii=False).split("\n")
    return text[:start] + "\n".join(lines[:1] + [indent + line for line in lines[1:]]) + text[i + 1:]


def with_items(entry):
    entry["items"] = items
    return entry


def catalog_member(_):
    entry = dict(catalog)
    entry["description"] = "The tenant's products and the entitlements they unlock, as catalog.set takes them; absent: left as it is."
    return entry


text = replace_member(path.read_text(), "retentionRules", "          ", with_items)
text = replace_member(text, "catalog", "    ", catalog_member)
path.write_text(text)
json.loads(path.read_text())
print("tenants/manifest.schema.json: retentionRules and catalog written from api-spec/openrpc.json")
