#!/usr/bin/env python3
"""The HTTP requests Apple's App Store Server Library (Python) builds for the 14 Retention Messaging calls.

Usage: retention_requests.py CALLS.json
CALLS.json: {"imageIdentifier", "messageIdentifier", "bulletImageIdentifier", "productId", "locale",
"realtimeURL", "originalTransactionId", "requestId", "png" (base64), "header", "body", "altText",
"bulletText"}. Prints one JSON object per call, in the library's order, with the request as `requests`
would send it: {"call", "method", "path", "query": [[name, value]], "contentType", "body" (base64)}.
Nothing is sent: the library's transport is replaced by one that prepares the request and keeps it.
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
from appstoreserverlibrary.models.BulletPoint import BulletPoint
from appstoreserverlibrary.models.DefaultConfigurationRequest import DefaultConfigurationRequest
from appstoreserverlibrary.models.HeaderPosition import HeaderPosition
from appstoreserverlibrary.models.ImageSize import ImageSize
from appstoreserverlibrary.models.PerformanceTestRequest import PerformanceTestRequest
from appstoreserverlibrary.models.RealtimeUrlRequest import RealtimeUrlRequest
from appstoreserverlibrary.models.UploadMessageImage import UploadMessageImage
from appstoreserverlibrary.models.UploadMessageRequestBody import UploadMessageRequestBody


class Captured(Exception):
    pass


def main():
    with open(sys.argv[1]) as f:
        args = json.load(f)
    key = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    client = AppStoreServerAPIClient(key, "KEYID", str(uuid.uuid4()), "com.example", Environment.SANDBOX)
    sent = []

    def execute(method, url, params, headers, json, data):
        prepared = requests.Request(method, url, params=params, headers=headers, json=json, data=data).prepare()
        sent.append(prepared)
        raise Captured()

    client._execute_request = execute
    image = uuid.UUID(args["imageIdentifier"])
    bullet_image = uuid.UUID(args["bulletImageIdentifier"])
    message = uuid.UUID(args["messageIdentifier"])
    png = base64.b64decode(args["png"])
    calls = [
        ("uploadImage", lambda: client.upload_image(image, png, ImageSize.FULL_SIZE)),
        ("deleteImage", lambda: client.delete_image(image)),
        ("getImageList", lambda: client.get_image_list()),
        ("uploadMessage", lambda: client.upload_message(message, UploadMessageRequestBody(
            header=args["header"], body=args["body"],
            image=UploadMessageImage(imageIdentifier=image, altText=args["altText"]),
            headerPosition=HeaderPosition.ABOVE_IMAGE,
            bulletPoints=[BulletPoint(text=args["bulletText"], imageIdentifier=bullet_image, altText=args["altText"])]))),
        ("deleteMessage", lambda: client.delete_message(message)),
        ("getMessageList", lambda: client.get_message_list()),
        ("configureDefaultMessage", lambda: client.configure_default_message(
            args["productId"], args["locale"], DefaultConfigurationRequest(messageIdentifier=message))),
        ("deleteDefaultMessage", lambda: client.delete_default_message(args["productId"], args["locale"])),
        ("getDefaultMessage", lambda: client.get_default_message(args["productId"], args["locale"])),
        ("configureRealtimeURL", lambda: client.configure_realtime_url(RealtimeUrlRequest(realtimeURL=args["realtimeURL"]))),
        ("deleteRealtimeURL", lambda: client.delete_realtime_url()),
        ("getRealtimeURL", lambda: client.get_realtime_url()),
        ("initiatePerformanceTest", lambda: client.initiate_performance_test(
            PerformanceTestRequest(originalTransactionId=args["originalTransactionId"]))),
        ("getPerformanceTestResults", lambda: client.get_performance_test_results(args["requestId"])),
    ]
    for name, call in calls:
        try:
            call()
        except Captured:
            pass
        prepared = sent[-1]
        url = urllib.parse.urlsplit(prepared.url)
        body = prepared.body or b""
        if isinstance(body, str):
            body = body.encode()
        print(json.dumps({
            "call": name,
            "method": prepared.method,
            "path": url.path,
            "query": urllib.parse.parse_qsl(url.query),
            "contentType": prepared.headers.get("Content-Type"),
            "body": base64.b64encode(body).decode(),
        }))


if __name__ == "__main__":
    main()
