#!/usr/bin/env python3
"""Validates every tenants/*.yaml against tenants/manifest.schema.json."""
import json
import sys
from pathlib import Path

import jsonschema
import yaml

root = Path(__file__).resolve().parents[2]
schema = json.loads((root / "tenants" / "manifest.schema.json").read_text())
validator = jsonschema.Draft7Validator(schema)
failed = 0
for path in sorted((root / "tenants").glob("*.yaml")):
    errors = list(validator.iter_errors(yaml.safe_load(path.read_text())))
    for error in errors:
        print(f"{path.name}: {'/'.join(map(str, error.absolute_path)) or '(root)'}: {error.message}", file=sys.stderr)
    failed += bool(errors)
    if not errors:
        print(f"{path.name}: valid manifest")
sys.exit(1 if failed else 0)
