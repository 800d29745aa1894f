#!/usr/bin/env python3
"""Creates N tenants (default 1000) with one app and one key each in a scratch database of the local
cluster, then runs `storegate migrate`, and prints the time per tenant and in total.
Run through `deploy/local/dev bench-tenants [N]`, which starts PostgreSQL and builds storegate first."""
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

here = Path(__file__).resolve().parent
repo = here.parents[1]
storegate = repo / ".build" / "debug" / "storegate"
count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
database = f"storegate_bench_{int(time.time())}"


def psql(sql):
    subprocess.run([str(here / "postgres.sh"), "psql", "-qtA", "-d", "postgres", "-c", sql], check=True)


def run(*args, env):
    started = time.perf_counter()
    result = subprocess.run([str(storegate), *args], env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        sys.exit(f"storegate {' '.join(args[:2])} failed: {result.stderr.strip()}")
    return elapsed, result.stdout


key = subprocess.run(["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"], capture_output=True, text=True, check=True).stdout
env = dict(os.environ)
env.update({
    "STOREGATE_DATABASE_URL": f"postgres://storegate@127.0.0.1:54329/{database}?sslmode=disable",
    "STOREGATE_MASTER_KEY": subprocess.run([str(storegate), "keys", "generate-master"], capture_output=True, text=True, check=True).stdout.strip(),
    "STOREGATE_LOG_LEVEL": "error",
    "BENCH_P8": key,
})
psql(f'CREATE DATABASE "{database}" OWNER storegate')
try:
    run("migrate", env=env)
    with tempfile.TemporaryDirectory() as scratch:
        files = []
        for i in range(count):
            path = Path(scratch) / f"bench-{i:05d}.yaml"
            path.write_text(
                f"slug: bench-{i:05d}\nname: Bench {i}\napps:\n  - bundleId: com.example.bench{i}\n"
                f"    keys: [{{keyId: BENCH{i:05d}, issuerId: 5b2c7c3e-1a4f-4d2b-9a0e-6f1d2c3b4a59, p8Env: BENCH_P8}}]\n")
            files.append(str(path))
        create, _ = run("tenant", "apply", *files, env=env)
    current, _ = run("migrate", env=env)
    # Mark every tenant as behind, so migrate visits each one: its lock, its ledger, its version bump.
    subprocess.run([str(here / "postgres.sh"), "psql", "-qtA", "-d", database, "-c", "UPDATE storegate.tenants SET schema_version = 0"], check=True)
    migrate, output = run("migrate", env=env)
    print(f"tenants: {count}, each with one app and one sealed key")
    print(f"  create (schema, tenant chain, app, key; one transaction each): {create:.1f} s total, {create / count * 1000:.1f} ms per tenant")
    print(f"  migrate, every tenant visited (advisory lock, ledger check, version bump): {migrate:.2f} s total, "
          f"{migrate / count * 1000:.2f} ms per tenant")
    print(f"  migrate, all current (one query): {current:.2f} s")
finally:
    psql(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
