#!/usr/bin/env python3
"""Validates api-spec/openrpc.json against the OpenRPC meta-schema in ../shared/jsonrpc, offline.
Usage: deploy/local/validate-openrpc.py [DOCUMENT] [JSONRPC_DIR]"""
import json
import sys
from pathlib import Path

import jsonschema
import referencing
import referencing.jsonschema

root = Path(__file__).resolve().parents[2]
document_path = Path(sys.argv[1]) if len(sys.argv) > 1 else root / "api-spec" / "openrpc.json"
material = Path(sys.argv[2]) if len(sys.argv) > 2 else root.parent / "shared" / "jsonrpc"

document = json.loads(document_path.read_text())
version = str(document.get("openrpc", ""))
meta = json.loads((material / ("openrpc-meta-schema.json" if version.startswith("1.4") else "openrpc-meta-schema-1.3.json")).read_text())
tools = referencing.Resource.from_contents(
    json.loads((material / "json-schema-tools-meta-schema.json").read_text()), default_specification=referencing.jsonschema.DRAFT7)
registry = referencing.Registry().with_resources([("https://meta.json-schema.tools", tools), ("https://meta.json-schema.tools/", tools)])
errors = list(jsonschema.Draft7Validator(meta, registry=registry).iter_errors(document))
for error in errors[:10]:
    print("/".join(map(str, error.absolute_path)) or "(root)", "-", error.message[:200], file=sys.stderr)
if errors:
    sys.exit(f"{document_path.name}: {len(errors)} error(s) against the OpenRPC {version} meta-schema")
print(f"{document_path.name}: valid OpenRPC {version} ({len(document['methods'])} methods)")
