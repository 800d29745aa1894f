#!/usr/bin/env python3
"""The HTTP request Apple's App Store Server Library (Python, 3.1.2) builds for Finish Transaction.

Usage: finish_transaction_request.py TRANSACTION_ID
Prints it as one JSON object, as `requests` would send it: {"method", "path", "query": [[name, value]],
"contentType", "body" (base64)}. Nothing is sent: the library's transport is replaced by one that keeps it.
"""
import base64
import json
import sys
import urllib.parse
import uuid

import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from appstoreserverlibrary.api_client import AppStoreServerAPIClient
from appstoreserverlibrary.models.Environment import Environment


class Captured(Exception):
    pass


def main():
    key = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    client = AppStoreServerAPIClient(key, "KEYID", str(uuid.uuid4()), "com.example", Environment.SANDBOX)
    sent = []

    def execute(method, url, params, headers, json, data):
        sent.append(requests.Request(method, url, params=params, headers=headers, json=json, data=data).prepare())
        raise Captured()

    client._execute_request = execute
    try:
        client.finish_transaction(sys.argv[1])
    except Captured:
        pass
    prepared = sent[-1]
    url = urllib.parse.urlsplit(prepared.url)
    body = prepared.body or b""
    if isinstance(body, str):
        body = body.encode()
    print(json.dumps({
        "method": prepared.method, "path": url.path, "query": urllib.parse.parse_qsl(url.query),
        "contentType": prepared.headers.get("Content-Type"), "body": base64.b64encode(body).decode(),
    }))


if __name__ == "__main__":
    main()
