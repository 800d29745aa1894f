#!/usr/bin/env python3
"""Writes an app's `retentionRules`, the tenant's `catalog` and its `dataRetention` in
tenants/manifest.schema.json from api-spec/openrpc.json, where `retention.rules.set`, `catalog.get` and
`dataRetention.set` document them (ManifestSchemaTests fails until they agree)."""
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
windows = next(method["params"] for method in openrpc["methods"] if method["name"] == "dataRetention.set")
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


def data_retention_member(_):
    properties = {}
    for param in windows:
        schema = dict(param["schema"])
        if "description" in param:
            schema["description"] = param["description"]
        properties[param["name"]] = schema
    return {
        "description": "How long the tenant keeps each kind of data, in minutes, as dataRetention.set takes them; a kind left out "
        "has its default; absent: left as they are.",
        "type": "object",
        "additionalProperties": False,
        "properties": properties,
    }


text = replace_member(path.read_text(), "retentionRules", "          ", with_items)
text = replace_member(text, "dataRetention", "    ", data_retention_member)
text = replace_member(text, "catalog", "    ", catalog_member)
path.write_text(text)
json.loads(path.read_text())
print("tenants/manifest.schema.json: retentionRules, catalog and dataRetention written from api-spec/openrpc.json")
