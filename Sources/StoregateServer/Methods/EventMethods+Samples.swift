import JSONRPC
import Storegate

/// A sample of each lifecycle event type, as `events.list` returned it in `LifecycleEventTests` (run them with
/// `STOREGATE_LIFECYCLE_SAMPLES=FILE` to collect new ones): `events.list`'s examples in the OpenRPC document,
/// and the samples of docs/API.md ("Lifecycle events"; `LifecycleSampleTests` keeps the two the same).
extension EventMethods {
    static let lifecycleSamples: [String] = [
        #"""
        {
          "id": "evt_owrmwys47ne2vhbt2akg3vadfi",
          "type": "subscription.started",
          "sequence": 6,
          "createdAt": "2026-11-27T18:31:47Z",
          "appId": "02d1313d-4938-43dd-b510-b6950245b10a",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "dan",
          "data": {
            "autoRenewStatus": true,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2026-10-23T18:31:46Z",
            "money": {
              "commissionPercent": 30,
              "price": 990,
              "estimatedProceeds": 693,
              "commissionRule": "standard",
              "currency": "USD"
            },
            "occurredAt": "2025-10-23T18:31:46Z",
            "originalTransactionId": "2000000000000001",
            "periodType": "normal",
            "productId": "com.example.monthly",
            "productType": "Auto-Renewable Subscription",
            "storefront": "USA",
            "subscriptionGroupIdentifier": "group.premium",
            "transactionId": "2000000000000001"
          }
        }
        """#,
        #"""
        {
          "id": "evt_obfrkfuwnnfotov6l7525zmk6q",
          "type": "subscription.trialStarted",
          "sequence": 6,
          "createdAt": "2026-11-27T18:31:47Z",
          "appId": "5ffb0016-3fde-42e0-8307-eab54b79d5be",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "ana",
          "data": {
            "autoRenewStatus": true,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2026-12-27T18:31:46Z",
            "money": {
              "commissionPercent": 30,
              "currency": "USD",
              "commissionRule": "standard",
              "estimatedProceeds": 0,
              "price": 0
            },
            "occurredAt": "2026-11-27T18:31:46Z",
            "offer": {
              "period": "P1W",
              "name": "introductoryOffer",
              "discountType": "FREE_TRIAL",
              "type": 1
            },
            "originalTransactionId": "2000000000000001",
            "periodType": "trial",
            "productId": "com.example.monthly",
            "productType": "Auto-Renewable Subscription",
            "storefront": "USA",
            "subscriptionGroupIdentifier": "group.premium",
            "transactionId": "2000000000000001"
          }
        }
        """#,
        #"""
        {
          "id": "evt_trgarzpokrcwpd3hnrjti34bx4",
          "type": "subscription.offerStarted",
          "sequence": 14,
          "createdAt": "2026-11-27T18:31:48Z",
          "appId": "0d6ec58e-529c-470d-902b-0b8a81566dc6",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "cleo",
          "data": {
            "autoRenewStatus": true,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2026-12-27T18:31:48Z",
            "money": {
              "commissionPercent": 15,
              "price": 490,
              "estimatedProceeds": 417,
              "commissionRule": "smallBusiness",
              "currency": "USD"
            },
            "occurredAt": "2026-11-27T18:31:48Z",
            "offer": {
              "type": 1,
              "discountType": "PAY_AS_YOU_GO",
              "name": "introductoryOffer"
            },
            "originalTransactionId": "2000000000000004",
            "periodType": "introductory",
            "productId": "com.example.monthly",
            "productType": "Auto-Renewable Subscription",
            "storefront": "USA",
            "subscriptionGroupIdentifier": "group.premium",
            "transactionId": "2000000000000004"
          }
        }
        """#,
        #"""
        {
          "id": "evt_5jpmr5y7gvf2pljxrenqaqlrty",
          "type": "subscription.resubscribed",
          "sequence": 52,
          "createdAt": "2026-11-27T18:31:54Z",
          "appId": "5ffb0016-3fde-42e0-8307-eab54b79d5be",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "ana",
          "data": {
            "autoRenewStatus": true,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2026-12-27T18:31:54Z",
            "money": {
              "currency": "USD",
              "price": 1290,
              "estimatedProceeds": 903,
              "commissionRule": "standard",
              "commissionPercent": 30
            },
            "occurredAt": "2026-11-27T18:31:54Z",
            "originalTransactionId": "2000000000000001",
            "periodType": "normal",
            "productId": "com.example.monthly",
            "productType": "Auto-Renewable Subscription",
            "storefront": "USA",
            "subscriptionGroupIdentifier": "group.premium",
            "transactionId": "2000000000000012"
          }
        }
        """#,
        #"""
        {
          "id": "evt_oi67elgzcbgzbdfung6nnfrhuq",
          "type": "subscription.renewed",
          "sequence": 10,
          "createdAt": "2026-11-27T18:31:47Z",
          "appId": "02d1313d-4938-43dd-b510-b6950245b10a",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "dan",
          "data": {
            "autoRenewStatus": true,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2027-11-27T18:31:46Z",
            "money": {
              "commissionPercent": 15,
              "commissionRule": "reducedAfterFirstYear",
              "price": 990,
              "estimatedProceeds": 842,
              "currency": "USD"
            },
            "occurredAt": "2026-11-27T18:31:46Z",
            "originalTransactionId": "2000000000000001",
            "periodType": "normal",
            "productId": "com.example.monthly",
            "productType": "Auto-Renewable Subscription",
            "storefront": "USA",
            "subscriptionGroupIdentifier": "group.premium",
            "transactionId": "2000000000000004"
          }
        }
        """#,
        #"""
        {
          "id": "evt_35tbcsqmabhklebf5kjilen7bm",
          "type": "subscription.trialConverted",
          "sequence": 10,
          "createdAt": "2026-11-27T18:31:47Z",
          "appId": "5ffb0016-3fde-42e0-8307-eab54b79d5be",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "ana",
          "data": {
            "autoRenewStatus": true,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2027-01-26T18:31:46Z",
            "money": {
              "commissionPercent": 30,
              "commissionRule": "standard",
              "price": 990,
              "estimatedProceeds": 693,
              "currency": "USD"
            },
            "occurredAt": "2026-11-27T18:31:47Z",
            "originalTransactionId": "2000000000000001",
            "periodType": "normal",
            "productId": "com.example.monthly",
            "productType": "Auto-Renewable Subscription",
            "storefront": "USA",
            "subscriptionGroupIdentifier": "group.premium",
            "transactionId": "2000000000000004"
          }
        }
        """#,
        #"""
        {
          "id": "evt_bh6nndgv25ggtf6glg5z62sovm",
          "type": "subscription.renewalCancelled",
          "sequence": 13,
          "createdAt": "2026-11-27T18:31:48Z",
          "appId": "5ffb0016-3fde-42e0-8307-eab54b79d5be",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "ana",
          "data": {
            "autoRenewStatus": false,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2027-01-26T18:31:46Z",
            "occurredAt": "2026-11-27T18:31:48Z",
            "originalTransactionId": "2000000000000001",
            "periodType": "normal",
            "productId": "com.example.monthly",
            "productType": "Auto-Renewable Subscription",
            "storefront": "USA",
            "subscriptionGroupIdentifier": "group.premium",
            "transactionId": "2000000000000004"
          }
        }
        """#,
        #"""
        {
          "id": "evt_euzfnztlerbetmepzfcskoecke",
          "type": "subscription.renewalEnabled",
          "sequence": 16,
          "createdAt": "2026-11-27T18:31:49Z",
          "appId": "5ffb0016-3fde-42e0-8307-eab54b79d5be",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "ana",
          "data": {
            "autoRenewStatus": true,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2027-01-26T18:31:46Z",
            "occurredAt": "2026-11-27T18:31:49Z",
            "originalTransactionId": "2000000000000001",
            "periodType": "normal",
            "productId": "com.example.monthly",
            "productType": "Auto-Renewable Subscription",
            "storefront": "USA",
            "subscriptionGroupIdentifier": "group.premium",
            "transactionId": "2000000000000004"
          }
        }
        """#,
        #"""
        {
          "id": "evt_kcbwxg36ajg53asg6k4iu2elpy",
          "type": "subscription.billingIssue",
          "sequence": 13,
          "createdAt": "2026-11-27T18:31:48Z",
          "appId": "b9d77005-cad7-4ac4-8d4a-73a19234c0d6",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "eve",
          "data": {
            "autoRenewStatus": true,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2026-11-27T18:31:46Z",
            "occurredAt": "2027-01-26T18:31:47Z",
            "originalTransactionId": "2000000000000001",
            "periodType": "normal",
            "productId": "com.example.monthly",
            "productType": "Auto-Renewable Subscription",
            "storefront": "USA",
            "subscriptionGroupIdentifier": "group.premium",
            "transactionId": "2000000000000004"
          }
        }
        """#,
        #"""
        {
          "id": "evt_z2ycp4snlraqxnnvxe3evk4ys4",
          "type": "subscription.gracePeriodEntered",
          "sequence": 14,
          "createdAt": "2026-11-27T18:31:48Z",
          "appId": "b9d77005-cad7-4ac4-8d4a-73a19234c0d6",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "eve",
          "data": {
            "autoRenewStatus": true,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2026-11-27T18:31:46Z",
            "occurredAt": "2026-11-27T18:31:47Z",
            "originalTransactionId": "2000000000000001",
            "periodType": "normal",
            "productId": "com.example.monthly",
            "productType": "Auto-Renewable Subscription",
            "storefront": "USA",
            "subscriptionGroupIdentifier": "group.premium",
            "transactionId": "2000000000000004"
          }
        }
        """#,
        #"""
        {
          "id": "evt_34j45hohv5amzjoodymse66qbe",
          "type": "subscription.gracePeriodEnded",
          "sequence": 31,
          "createdAt": "2026-11-27T18:31:51Z",
          "appId": "5ffb0016-3fde-42e0-8307-eab54b79d5be",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "ana",
          "data": {
            "autoRenewStatus": true,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2026-11-27T18:31:50Z",
            "occurredAt": "2026-11-27T18:31:51Z",
            "originalTransactionId": "2000000000000001",
            "periodType": "normal",
            "productId": "com.example.monthly",
            "productType": "Auto-Renewable Subscription",
            "storefront": "USA",
            "subscriptionGroupIdentifier": "group.premium",
            "transactionId": "2000000000000006"
          }
        }
        """#,
        #"""
        {
          "id": "evt_hylusagou5hj3efnyezinzhwoi",
          "type": "subscription.billingRecovered",
          "sequence": 18,
          "createdAt": "2026-11-27T18:31:48Z",
          "appId": "b9d77005-cad7-4ac4-8d4a-73a19234c0d6",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "eve",
          "data": {
            "autoRenewStatus": true,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2026-12-27T18:31:46Z",
            "money": {
              "currency": "USD",
              "price": 990,
              "estimatedProceeds": 693,
              "commissionRule": "standard",
              "commissionPercent": 30
            },
            "occurredAt": "2026-11-27T18:31:47Z",
            "originalTransactionId": "2000000000000001",
            "periodType": "normal",
            "productId": "com.example.monthly",
            "productType": "Auto-Renewable Subscription",
            "storefront": "USA",
            "subscriptionGroupIdentifier": "group.premium",
            "transactionId": "2000000000000006"
          }
        }
        """#,
        #"""
        {
          "id": "evt_ydqwvathsnbfrfcz6pxlrwapde",
          "type": "subscription.expired",
          "sequence": 13,
          "createdAt": "2026-11-27T18:31:49Z",
          "appId": "60fd4004-e653-409c-ba41-84d3d53014e9",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "fay",
          "data": {
            "autoRenewStatus": false,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2026-11-27T18:31:48Z",
            "occurredAt": "2026-11-27T18:31:49Z",
            "originalTransactionId": "2000000000000001",
            "periodType": "normal",
            "productId": "com.example.monthly",
            "productType": "Auto-Renewable Subscription",
            "reason": "billingError",
            "storefront": "USA",
            "subscriptionGroupIdentifier": "group.premium",
            "transactionId": "2000000000000004"
          }
        }
        """#,
        #"""
        {
          "id": "evt_6so5yhnjorfelimnbqpa6tmzbi",
          "type": "subscription.productChangeScheduled",
          "sequence": 8,
          "createdAt": "2026-11-27T18:31:48Z",
          "appId": "db0327fd-6b9e-4c18-aeca-2223048bdb60",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "ben",
          "data": {
            "autoRenewStatus": true,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2026-12-27T18:31:47Z",
            "occurredAt": "2026-11-27T18:31:48Z",
            "originalTransactionId": "2000000000000001",
            "periodType": "normal",
            "productChange": {
              "from": "com.example.monthly",
              "to": "com.example.basic",
              "direction": "downgrade"
            },
            "productId": "com.example.monthly",
            "productType": "Auto-Renewable Subscription",
            "storefront": "DEU",
            "subscriptionGroupIdentifier": "group.premium",
            "transactionId": "2000000000000001"
          }
        }
        """#,
        #"""
        {
          "id": "evt_ymxwtazttvhnhhtj4kitux2tpy",
          "type": "subscription.productChangeCancelled",
          "sequence": 10,
          "createdAt": "2026-11-27T18:31:49Z",
          "appId": "db0327fd-6b9e-4c18-aeca-2223048bdb60",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "ben",
          "data": {
            "autoRenewStatus": true,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2026-12-27T18:31:47Z",
            "occurredAt": "2026-11-27T18:31:49Z",
            "originalTransactionId": "2000000000000001",
            "periodType": "normal",
            "productChange": {
              "to": "com.example.monthly",
              "direction": "upgrade",
              "from": "com.example.basic"
            },
            "productId": "com.example.monthly",
            "productType": "Auto-Renewable Subscription",
            "storefront": "DEU",
            "subscriptionGroupIdentifier": "group.premium",
            "transactionId": "2000000000000001"
          }
        }
        """#,
        #"""
        {
          "id": "evt_nqn42uggnrh5bdempg3gn2f7yq",
          "type": "subscription.productChanged",
          "sequence": 16,
          "createdAt": "2026-11-27T18:31:50Z",
          "appId": "db0327fd-6b9e-4c18-aeca-2223048bdb60",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "ben",
          "data": {
            "autoRenewStatus": true,
            "entitlements": [
              "basic"
            ],
            "expiresDate": "2027-01-26T18:31:47Z",
            "money": {
              "commissionPercent": 30,
              "commissionRule": "standard",
              "taxBasisPoints": 1900,
              "estimatedProceeds": 5876,
              "price": 9990,
              "currency": "EUR"
            },
            "occurredAt": "2026-11-27T18:31:50Z",
            "originalTransactionId": "2000000000000001",
            "periodType": "normal",
            "productChange": {
              "from": "com.example.monthly",
              "to": "com.example.basic",
              "direction": "downgrade"
            },
            "productId": "com.example.basic",
            "productType": "Auto-Renewable Subscription",
            "storefront": "DEU",
            "subscriptionGroupIdentifier": "group.premium",
            "transactionId": "2000000000000004"
          }
        }
        """#,
        #"""
        {
          "id": "evt_dcxbetibnvhbhnqc3foxlqpmce",
          "type": "subscription.priceIncreasePending",
          "sequence": 18,
          "createdAt": "2026-11-27T18:31:49Z",
          "appId": "5ffb0016-3fde-42e0-8307-eab54b79d5be",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "ana",
          "data": {
            "autoRenewStatus": true,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2027-01-26T18:31:46Z",
            "occurredAt": "2026-11-27T18:31:49Z",
            "originalTransactionId": "2000000000000001",
            "periodType": "normal",
            "productId": "com.example.monthly",
            "productType": "Auto-Renewable Subscription",
            "storefront": "USA",
            "subscriptionGroupIdentifier": "group.premium",
            "transactionId": "2000000000000004"
          }
        }
        """#,
        #"""
        {
          "id": "evt_7m2imfdcsfe23acaf2leaed2ku",
          "type": "subscription.priceIncreaseConsented",
          "sequence": 20,
          "createdAt": "2026-11-27T18:31:50Z",
          "appId": "5ffb0016-3fde-42e0-8307-eab54b79d5be",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "ana",
          "data": {
            "autoRenewStatus": true,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2027-01-26T18:31:46Z",
            "occurredAt": "2026-11-27T18:31:50Z",
            "originalTransactionId": "2000000000000001",
            "periodType": "normal",
            "productId": "com.example.monthly",
            "productType": "Auto-Renewable Subscription",
            "storefront": "USA",
            "subscriptionGroupIdentifier": "group.premium",
            "transactionId": "2000000000000004"
          }
        }
        """#,
        #"""
        {
          "id": "evt_3szmil44ozgaff6nnd2dxoj77a",
          "type": "subscription.priceIncreaseRefused",
          "sequence": 63,
          "createdAt": "2026-11-27T18:31:54Z",
          "appId": "5ffb0016-3fde-42e0-8307-eab54b79d5be",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "ana",
          "data": {
            "autoRenewStatus": false,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2026-11-27T18:31:53Z",
            "implied": true,
            "occurredAt": "2026-11-27T18:31:54Z",
            "offer": {
              "identifier": "COMEBACK",
              "name": "winBackOffer",
              "type": 4,
              "discountType": "PAY_UP_FRONT"
            },
            "originalTransactionId": "2000000000000001",
            "periodType": "winBack",
            "productId": "com.example.monthly",
            "productType": "Auto-Renewable Subscription",
            "storefront": "USA",
            "subscriptionGroupIdentifier": "group.premium",
            "transactionId": "2000000000000014"
          }
        }
        """#,
        #"""
        {
          "id": "evt_2e3vojpbtbddzn5vf47fm7p3ni",
          "type": "subscription.extended",
          "sequence": 36,
          "createdAt": "2026-11-27T18:31:52Z",
          "appId": "db0327fd-6b9e-4c18-aeca-2223048bdb60",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "ben",
          "data": {
            "autoRenewStatus": true,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2027-04-03T18:31:50Z",
            "extendedByDays": 7,
            "occurredAt": "2027-04-03T18:31:50Z",
            "originalTransactionId": "2000000000000001",
            "periodType": "normal",
            "productId": "com.example.monthly",
            "productType": "Auto-Renewable Subscription",
            "subscriptionGroupIdentifier": "group.premium",
            "transactionId": "2000000000000012"
          }
        }
        """#,
        #"""
        {
          "id": "evt_2bpumqmfe5g3tbhkt23f3ykx6a",
          "type": "purchase.oneTime",
          "sequence": 5,
          "createdAt": "2026-11-27T18:31:47Z",
          "appId": "0d6ec58e-529c-470d-902b-0b8a81566dc6",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "cleo",
          "data": {
            "entitlements": [
              "pro"
            ],
            "money": {
              "commissionPercent": 15,
              "price": 29990,
              "estimatedProceeds": 25492,
              "commissionRule": "smallBusiness",
              "currency": "USD"
            },
            "occurredAt": "2026-11-27T18:31:47Z",
            "originalTransactionId": "2000000000000001",
            "productId": "com.example.lifetime",
            "productType": "Non-Consumable",
            "storefront": "USA",
            "transactionId": "2000000000000001"
          }
        }
        """#,
        #"""
        {
          "id": "evt_36d76mdgdnf4rb2b4kefu5z43e",
          "type": "purchase.consumable",
          "sequence": 9,
          "createdAt": "2026-11-27T18:31:47Z",
          "appId": "0d6ec58e-529c-470d-902b-0b8a81566dc6",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "cleo",
          "data": {
            "entitlements": [],
            "money": {
              "commissionPercent": 15,
              "commissionRule": "smallBusiness",
              "price": 3960,
              "estimatedProceeds": 3366,
              "currency": "USD"
            },
            "occurredAt": "2026-11-27T18:31:47Z",
            "originalTransactionId": "2000000000000003",
            "productId": "com.example.coins",
            "productType": "Consumable",
            "storefront": "USA",
            "transactionId": "2000000000000003"
          }
        }
        """#,
        #"""
        {
          "id": "evt_uw23s6b4c5egpbtmsg6gvip3s4",
          "type": "purchase.refunded",
          "sequence": 40,
          "createdAt": "2026-11-27T18:31:53Z",
          "appId": "db0327fd-6b9e-4c18-aeca-2223048bdb60",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "ben",
          "data": {
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2027-02-25T18:31:50Z",
            "money": {
              "commissionPercent": 30,
              "currency": "EUR",
              "price": -4995,
              "estimatedProceeds": -2938,
              "commissionRule": "standard",
              "taxBasisPoints": 1900
            },
            "occurredAt": "2026-11-27T18:31:52Z",
            "offer": {
              "type": 5,
              "identifier": "STAY",
              "name": "retentionOffer"
            },
            "originalTransactionId": "2000000000000001",
            "periodType": "retention",
            "productId": "com.example.monthly",
            "productType": "Auto-Renewable Subscription",
            "refundPercentage": 50000,
            "storefront": "DEU",
            "subscriptionGroupIdentifier": "group.premium",
            "transactionId": "2000000000000010"
          }
        }
        """#,
        #"""
        {
          "id": "evt_cs2z3e6n4vckvdildyy5uuqwpe",
          "type": "purchase.refundReversed",
          "sequence": 43,
          "createdAt": "2026-11-27T18:31:53Z",
          "appId": "db0327fd-6b9e-4c18-aeca-2223048bdb60",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "ben",
          "data": {
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2027-02-25T18:31:50Z",
            "money": {
              "commissionPercent": 30,
              "commissionRule": "standard",
              "taxBasisPoints": 1900,
              "estimatedProceeds": 2938,
              "price": 4995,
              "currency": "EUR"
            },
            "occurredAt": "2026-11-27T18:31:53Z",
            "offer": {
              "identifier": "STAY",
              "type": 5,
              "name": "retentionOffer"
            },
            "originalTransactionId": "2000000000000001",
            "periodType": "retention",
            "productId": "com.example.monthly",
            "productType": "Auto-Renewable Subscription",
            "refundPercentage": 50000,
            "storefront": "DEU",
            "subscriptionGroupIdentifier": "group.premium",
            "transactionId": "2000000000000010"
          }
        }
        """#,
        #"""
        {
          "id": "evt_6tlkna76ynfjjivrmyztinwlda",
          "type": "purchase.familyRevoked",
          "sequence": 25,
          "createdAt": "2026-11-27T18:31:50Z",
          "appId": "0d6ec58e-529c-470d-902b-0b8a81566dc6",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "cleo",
          "data": {
            "entitlements": [
              "pro"
            ],
            "familyShared": true,
            "occurredAt": "2026-11-27T18:31:50Z",
            "originalTransactionId": "2000000000000008",
            "productId": "com.example.lifetime",
            "productType": "Non-Consumable",
            "storefront": "USA",
            "transactionId": "2000000000000008"
          }
        }
        """#,
        #"""
        {
          "id": "evt_gcktcpepnbekvizhhlqslg3av4",
          "type": "purchase.transferred",
          "sequence": 27,
          "createdAt": "2026-11-27T18:31:50Z",
          "appId": "0d6ec58e-529c-470d-902b-0b8a81566dc6",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "dora",
          "data": {
            "entitlements": [
              "basic"
            ],
            "expiresDate": "2026-12-27T18:31:49Z",
            "occurredAt": "2026-11-27T18:31:50Z",
            "originalTransactionId": "2000000000000006",
            "previousCustomerId": "cleo",
            "productId": "com.example.basic",
            "productType": "Auto-Renewable Subscription",
            "transactionId": "2000000000000006"
          }
        }
        """#,
    ]

    /// `events.list` filtered to each lifecycle type, answered with its sample.
    static var lifecycleExamples: [RPCExample] {
        lifecycleSamples.compactMap { text in
            guard let event = try? JSONParser.parse(Array(text.utf8)), case .string(let type)? = event["type"],
                case .number(let number)? = event["sequence"], let sequence = Int(number)
            else { return nil }
            return RPCExample(
                type, summary: "A \(type) event", params: [("types", [.string(type)]), ("after", .number(String(sequence - 1))), ("limit", 1)],
                result: ["events": [event], "next": .number(String(sequence))])
        }
    }
}
