#!/usr/bin/env python3
"""The README's walk-through, against a running Storegate and App Store simulator (`dev run` starts both).

A signed offer, a linked account, a simulated purchase and the notification Apple sends for it, and a
status read. Standard library only. Usage: demo.py STOREGATE_URL SIMULATOR_URL API_KEY P8_FILE
"""
import json
import subprocess
import sys
import time
import urllib.request

storegate, simulator, api_key, p8_file = sys.argv[1:5]
bundle_id = "com.example.storegate.demo"


def post(url, body, headers=None):
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", **(headers or {})})
    with urllib.request.urlopen(request, timeout=10) as response:
        raw = response.read()
        return json.loads(raw) if raw else None


def rpc(method, **params):
    reply = post(storegate + "/rpc", {"jsonrpc": "2.0", "method": method, "params": params, "id": 1},
                 {"Authorization": "Bearer " + api_key})
    if "error" in reply:
        sys.exit(f"demo: {method} failed: {json.dumps(reply['error'])}")
    return reply["result"]


def show(step, what):
    print(f"\n── {step}\n{json.dumps(what, indent=2)}")


# The simulator plays Apple: `dev run` told it the demo app, its key's public half and where to send
# notifications (`storegate simulator register`) before Storegate started, so the first sweep finds them.

customer = rpc("accounts.ensure", customerId="demo-customer-1")
show("1. accounts.ensure: the customer's stable appAccountToken (pass it to StoreKit's purchase)", customer)

offer = rpc("offers.signPromotional", bundleId=bundle_id, productId="com.example.storegate.monthly", offerId="WINBACK50",
            appAccountToken=customer["appAccountToken"])
show("2. offers.signPromotional: what StoreKit's promotionalOffer purchase option takes", offer)

purchase = post(simulator + "/simulator/purchases", {
    "customer": "demo-device-1", "bundleId": bundle_id, "productId": "com.example.storegate.monthly",
    "type": "Auto-Renewable Subscription", "subscriptionGroupIdentifier": "demo.premium", "appAccountToken": customer["appAccountToken"]})
show("3. the simulator sells a subscription and sends Storegate SUBSCRIBED", {k: purchase[k] for k in ("transactionId", "productId", "appAccountToken")})

# Wait for this purchase's notification (an earlier run's subscriptions may be there already).
for _ in range(100):
    status = rpc("subscriptions.status", customerId="demo-customer-1")
    if any(s["originalTransactionId"] == purchase["originalTransactionId"] for s in status["subscriptions"]):
        break
    time.sleep(0.1)
else:
    sys.exit("demo: the purchase's notification was not applied within 10 s; see deploy/local/data/serve.log")
status["subscriptions"] = [s for s in status["subscriptions"] if s["originalTransactionId"] == purchase["originalTransactionId"]]
show("4. notifications.list: what Apple sent", rpc("notifications.list", bundleId=bundle_id, limit=1))
show("5. subscriptions.status: kept current from the notification", status)
show("6. accounts.resolve: the customer from the originalTransactionId",
     rpc("accounts.resolve", bundleId=bundle_id, originalTransactionId=purchase["originalTransactionId"]))
print()
