#!/usr/bin/env python3
"""Checks Standard Webhooks signatures with Python's own hmac, independently of Storegate's Swift code.

Reads JSON from the file named by the first argument:
  {"secrets": ["whsec_..."], "messages": [{"id": ..., "timestamp": ..., "signature": ..., "body": ...}]}
and prints, for each message, one line: the indexes of the secrets that signed it (comma-separated,
"-" for none), then the number of signatures in its header. A timestamp more than 5 minutes away from
now, or a header that is not "v1,<base64>" entries, prints "invalid".
"""
import base64
import hashlib
import hmac
import json
import sys
import time


def main():
    with open(sys.argv[1]) as f:
        spec = json.load(f)
    keys = [base64.b64decode(s[len("whsec_"):]) for s in spec["secrets"]]
    for message in spec["messages"]:
        timestamp = int(message["timestamp"])
        if abs(time.time() - timestamp) > 300:
            print("invalid")
            continue
        entries = message["signature"].split(" ")
        signatures = []
        for entry in entries:
            version, _, value = entry.partition(",")
            if version != "v1" or not value:
                signatures = None
                break
            signatures.append(base64.b64decode(value))
        if signatures is None:
            print("invalid")
            continue
        content = f'{message["id"]}.{timestamp}.{message["body"]}'.encode()
        signed_by = []
        for index, key in enumerate(keys):
            expected = hmac.new(key, content, hashlib.sha256).digest()
            if any(hmac.compare_digest(expected, s) for s in signatures):
                signed_by.append(str(index))
        print((",".join(signed_by) or "-") + " " + str(len(signatures)))


if __name__ == "__main__":
    main()
