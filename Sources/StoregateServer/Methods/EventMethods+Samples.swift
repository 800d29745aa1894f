import JSONRPC
import Storegate

/// A sample of each lifecycle event type, as `events.list` returned it in `LifecycleEventTests` (run them with
/// `STOREGATE_LIFECYCLE_SAMPLES=FILE` to collect new ones): `events.list`'s examples in the OpenRPC document,
/// and the samples of docs/API.md ("Lifecycle events"; `LifecycleSampleTests` keeps the two the same).
extension EventMethods {
    static let lifecycleSamples: [String] = [
        #"""
        {
          "id": "evt_fgoujjrztvfrtm7g3ywyjazzki",
          "type": "subscription.started",
          "sequence": 6,
          "createdAt": "2026-11-27T19:23:33Z",
          "appId": "9dc77ef0-49cc-4986-b96e-72da8bce1f47",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "dan",
          "data": {
            "autoRenewStatus": true,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2026-10-23T19:23:33Z",
            "money": {
              "price": 990,
              "commissionPercent": 30,
              "currency": "USD",
              "estimatedProceeds": 693,
              "commissionRule": "standard"
            },
            "occurredAt": "2025-10-23T19:23:33Z",
            "originalTransactionId": "2000000000000001",
            "periodStart": "2025-10-23T19:23:33Z",
            "periodType": "normal",
            "productId": "com.example.monthly",
            "productType": "Auto-Renewable Subscription",
            "storefront": "USA",
            "subscribed": "initialBuy",
            "subscriptionGroupIdentifier": "group.premium",
            "transactionId": "2000000000000001"
          }
        }
        """#,
        #"""
        {
          "id": "evt_di6ykrkkjfgahgpwm7us3qejnu",
          "type": "subscription.trialStarted",
          "sequence": 6,
          "createdAt": "2026-11-27T19:23:33Z",
          "appId": "51cede76-329e-41c3-b117-04692173ea1b",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "ana",
          "data": {
            "autoRenewStatus": true,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2026-12-27T19:23:33Z",
            "money": {
              "currency": "USD",
              "commissionPercent": 30,
              "commissionRule": "standard",
              "estimatedProceeds": 0,
              "price": 0
            },
            "occurredAt": "2026-11-27T19:23:33Z",
            "offer": {
              "period": "P1W",
              "type": 1,
              "discountType": "FREE_TRIAL",
              "name": "introductoryOffer"
            },
            "originalTransactionId": "2000000000000001",
            "periodStart": "2026-11-27T19:23:33Z",
            "periodType": "trial",
            "productId": "com.example.monthly",
            "productType": "Auto-Renewable Subscription",
            "storefront": "USA",
            "subscribed": "initialBuy",
            "subscriptionGroupIdentifier": "group.premium",
            "transactionId": "2000000000000001"
          }
        }
        """#,
        #"""
        {
          "id": "evt_gmsk6fehs5co7l2cbylpubb5ta",
          "type": "subscription.offerStarted",
          "sequence": 15,
          "createdAt": "2026-11-27T19:23:33Z",
          "appId": "04376fc1-27bb-4885-b18f-13e25cd1b5b8",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "cleo",
          "data": {
            "autoRenewStatus": true,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2026-12-27T19:23:33Z",
            "money": {
              "price": 490,
              "commissionPercent": 15,
              "currency": "USD",
              "estimatedProceeds": 417,
              "commissionRule": "smallBusiness"
            },
            "occurredAt": "2026-11-27T19:23:33Z",
            "offer": {
              "discountType": "PAY_AS_YOU_GO",
              "name": "introductoryOffer",
              "type": 1
            },
            "originalTransactionId": "2000000000000004",
            "periodStart": "2026-11-27T19:23:33Z",
            "periodType": "introductory",
            "productId": "com.example.monthly",
            "productType": "Auto-Renewable Subscription",
            "storefront": "USA",
            "subscribed": "initialBuy",
            "subscriptionGroupIdentifier": "group.premium",
            "transactionId": "2000000000000004"
          }
        }
        """#,
        #"""
        {
          "id": "evt_sj3gog6nofh6vkkeceeqsrcdme",
          "type": "subscription.resubscribed",
          "sequence": 58,
          "createdAt": "2026-11-27T19:23:35Z",
          "appId": "51cede76-329e-41c3-b117-04692173ea1b",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "ana",
          "data": {
            "autoRenewStatus": true,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2026-12-27T19:23:35Z",
            "money": {
              "currency": "USD",
              "price": 1290,
              "estimatedProceeds": 903,
              "commissionRule": "standard",
              "commissionPercent": 30
            },
            "occurredAt": "2026-11-27T19:23:35Z",
            "originalTransactionId": "2000000000000001",
            "periodStart": "2026-11-27T19:23:35Z",
            "periodType": "normal",
            "productId": "com.example.monthly",
            "productType": "Auto-Renewable Subscription",
            "storefront": "USA",
            "subscribed": "resubscribe",
            "subscriptionGroupIdentifier": "group.premium",
            "transactionId": "2000000000000012"
          }
        }
        """#,
        #"""
        {
          "id": "evt_mhdyc2upbvfunh2dwck2edysoq",
          "type": "subscription.renewed",
          "sequence": 8,
          "createdAt": "2026-11-27T19:23:33Z",
          "appId": "d541b47f-5ed9-4430-af99-676bbfc0c67e",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "fay",
          "data": {
            "autoRenewStatus": true,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2027-01-26T19:23:33Z",
            "money": {
              "price": 990,
              "commissionPercent": 30,
              "currency": "USD",
              "estimatedProceeds": 693,
              "commissionRule": "standard"
            },
            "occurredAt": "2026-11-27T19:23:33Z",
            "originalTransactionId": "2000000000000001",
            "periodStart": "2026-12-27T19:23:33Z",
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
          "id": "evt_rbq6kiqlxvgo7lv6od5kculq7u",
          "type": "subscription.trialConverted",
          "sequence": 11,
          "createdAt": "2026-11-27T19:23:33Z",
          "appId": "51cede76-329e-41c3-b117-04692173ea1b",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "ana",
          "data": {
            "autoRenewStatus": true,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2027-01-26T19:23:33Z",
            "money": {
              "estimatedProceeds": 693,
              "price": 990,
              "currency": "USD",
              "commissionPercent": 30,
              "commissionRule": "standard"
            },
            "occurredAt": "2026-11-27T19:23:33Z",
            "originalTransactionId": "2000000000000001",
            "periodStart": "2026-12-27T19:23:33Z",
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
          "id": "evt_ebs2szd4dbb6rcnavy54f5mazu",
          "type": "subscription.renewalCancelled",
          "sequence": 14,
          "createdAt": "2026-11-27T19:23:34Z",
          "appId": "51cede76-329e-41c3-b117-04692173ea1b",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "ana",
          "data": {
            "autoRenewStatus": false,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2027-01-26T19:23:33Z",
            "occurredAt": "2026-11-27T19:23:34Z",
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
          "id": "evt_odb3lvje2bhdrcxzod6sl2pmxy",
          "type": "subscription.renewalEnabled",
          "sequence": 17,
          "createdAt": "2026-11-27T19:23:34Z",
          "appId": "51cede76-329e-41c3-b117-04692173ea1b",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "ana",
          "data": {
            "autoRenewStatus": true,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2027-01-26T19:23:33Z",
            "occurredAt": "2026-11-27T19:23:34Z",
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
          "id": "evt_2d3sztfc6ve7bli3pyoz257vye",
          "type": "subscription.billingIssue",
          "sequence": 11,
          "createdAt": "2026-11-27T19:23:33Z",
          "appId": "872b54c4-b199-4101-a07f-dbc749b034bb",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "eve",
          "data": {
            "autoRenewStatus": true,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2026-11-27T19:23:32Z",
            "occurredAt": "2027-01-26T19:23:33Z",
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
          "id": "evt_hamyhrgrh5fwfldhnsmfah22wm",
          "type": "subscription.gracePeriodEntered",
          "sequence": 12,
          "createdAt": "2026-11-27T19:23:33Z",
          "appId": "872b54c4-b199-4101-a07f-dbc749b034bb",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "eve",
          "data": {
            "autoRenewStatus": true,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2026-11-27T19:23:32Z",
            "occurredAt": "2026-11-27T19:23:33Z",
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
          "id": "evt_ppdvw6cy3zc47fza7pvofagmtq",
          "type": "subscription.gracePeriodEnded",
          "sequence": 32,
          "createdAt": "2026-11-27T19:23:59Z",
          "appId": "88185066-2b2e-469f-a03c-7e00c66425f5",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "ana",
          "data": {
            "autoRenewStatus": true,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2026-11-27T19:23:57Z",
            "occurredAt": "2026-11-27T19:23:59Z",
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
          "id": "evt_xq4g6il6inbp3mecdj3jzquagy",
          "type": "subscription.billingRecovered",
          "sequence": 16,
          "createdAt": "2026-11-27T19:23:33Z",
          "appId": "872b54c4-b199-4101-a07f-dbc749b034bb",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "eve",
          "data": {
            "autoRenewStatus": true,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2026-12-27T19:23:32Z",
            "money": {
              "currency": "USD",
              "commissionPercent": 30,
              "price": 990,
              "estimatedProceeds": 693,
              "commissionRule": "standard"
            },
            "occurredAt": "2026-11-27T19:23:33Z",
            "originalTransactionId": "2000000000000001",
            "periodStart": "2026-11-27T19:23:33Z",
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
          "id": "evt_4uoxmaqe3rahhglztndweafqfy",
          "type": "subscription.expired",
          "sequence": 14,
          "createdAt": "2026-11-27T19:23:34Z",
          "appId": "d541b47f-5ed9-4430-af99-676bbfc0c67e",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "fay",
          "data": {
            "autoRenewStatus": false,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2026-11-27T19:23:33Z",
            "occurredAt": "2026-11-27T19:23:34Z",
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
          "id": "evt_nfn7qytl25bbfpdh5tixjzyl6u",
          "type": "subscription.productChangeScheduled",
          "sequence": 9,
          "createdAt": "2026-11-27T19:23:34Z",
          "appId": "5bf8c0a4-f7ce-463b-85b9-52f9630030de",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "ben",
          "data": {
            "autoRenewStatus": true,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2026-12-27T19:23:33Z",
            "occurredAt": "2026-11-27T19:23:34Z",
            "originalTransactionId": "2000000000000001",
            "periodType": "normal",
            "productChange": {
              "from": "com.example.monthly",
              "direction": "downgrade",
              "to": "com.example.basic"
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
          "id": "evt_jkhth45pdfcgnou6lvdoz2e7he",
          "type": "subscription.productChangeCancelled",
          "sequence": 11,
          "createdAt": "2026-11-27T19:23:34Z",
          "appId": "5bf8c0a4-f7ce-463b-85b9-52f9630030de",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "ben",
          "data": {
            "autoRenewStatus": true,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2026-12-27T19:23:33Z",
            "occurredAt": "2026-11-27T19:23:34Z",
            "originalTransactionId": "2000000000000001",
            "periodType": "normal",
            "productChange": {
              "from": "com.example.basic",
              "to": "com.example.monthly",
              "direction": "upgrade"
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
          "id": "evt_wgvnqfjadbbc5j3ix4xp62f4re",
          "type": "subscription.productChanged",
          "sequence": 22,
          "createdAt": "2026-11-27T19:23:34Z",
          "appId": "5bf8c0a4-f7ce-463b-85b9-52f9630030de",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "ben",
          "data": {
            "autoRenewStatus": true,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2026-12-27T19:23:34Z",
            "money": {
              "estimatedProceeds": 5876,
              "price": 9990,
              "currency": "EUR",
              "commissionRule": "standard",
              "taxBasisPoints": 1900,
              "commissionPercent": 30
            },
            "occurredAt": "2026-11-27T19:23:34Z",
            "originalTransactionId": "2000000000000001",
            "periodStart": "2026-11-27T19:23:34Z",
            "periodType": "normal",
            "productChange": {
              "direction": "upgrade",
              "to": "com.example.monthly",
              "from": "com.example.basic"
            },
            "productId": "com.example.monthly",
            "productType": "Auto-Renewable Subscription",
            "replacedPeriod": {
              "transactionId": "2000000000000004",
              "price": 9990,
              "expiresDate": "2027-01-26T19:23:33Z",
              "periodStart": "2026-12-27T19:23:33Z"
            },
            "storefront": "DEU",
            "subscriptionGroupIdentifier": "group.premium",
            "transactionId": "2000000000000006"
          }
        }
        """#,
        #"""
        {
          "id": "evt_66otxzd4lndrjlk625wkympoje",
          "type": "subscription.priceIncreasePending",
          "sequence": 19,
          "createdAt": "2026-11-27T19:23:34Z",
          "appId": "51cede76-329e-41c3-b117-04692173ea1b",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "ana",
          "data": {
            "autoRenewStatus": true,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2027-01-26T19:23:33Z",
            "occurredAt": "2026-11-27T19:23:34Z",
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
          "id": "evt_lg5irsavcbagjffvewbvoib2sm",
          "type": "subscription.priceIncreaseConsented",
          "sequence": 21,
          "createdAt": "2026-11-27T19:23:34Z",
          "appId": "51cede76-329e-41c3-b117-04692173ea1b",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "ana",
          "data": {
            "autoRenewStatus": true,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2027-01-26T19:23:33Z",
            "occurredAt": "2026-11-27T19:23:34Z",
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
          "id": "evt_otwbtirlqves7n4pnvamoawpia",
          "type": "subscription.priceIncreaseRefused",
          "sequence": 72,
          "createdAt": "2026-11-27T19:23:35Z",
          "appId": "51cede76-329e-41c3-b117-04692173ea1b",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "ana",
          "data": {
            "autoRenewStatus": false,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2026-11-27T19:23:34Z",
            "implied": true,
            "occurredAt": "2026-11-27T19:23:35Z",
            "offer": {
              "discountType": "PAY_UP_FRONT",
              "identifier": "COMEBACK",
              "name": "winBackOffer",
              "type": 4
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
          "id": "evt_hztd5vrxmzhlhatuwl5zlqxmgm",
          "type": "subscription.extended",
          "sequence": 39,
          "createdAt": "2026-11-27T19:23:34Z",
          "appId": "5bf8c0a4-f7ce-463b-85b9-52f9630030de",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "ben",
          "data": {
            "autoRenewStatus": true,
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2027-04-03T19:23:34Z",
            "extendedByDays": 7,
            "occurredAt": "2027-04-03T19:23:34Z",
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
          "id": "evt_6g7nyvwd5zfv7bfoy7c6iogope",
          "type": "purchase.oneTime",
          "sequence": 5,
          "createdAt": "2026-11-27T19:23:33Z",
          "appId": "04376fc1-27bb-4885-b18f-13e25cd1b5b8",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "cleo",
          "data": {
            "entitlements": [
              "pro"
            ],
            "money": {
              "commissionRule": "smallBusiness",
              "price": 29990,
              "commissionPercent": 15,
              "currency": "USD",
              "estimatedProceeds": 25492
            },
            "occurredAt": "2026-11-27T19:23:33Z",
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
          "id": "evt_2pudrye4pvfv5jr5cuxaubyrqi",
          "type": "purchase.consumable",
          "sequence": 10,
          "createdAt": "2026-11-27T19:23:33Z",
          "appId": "04376fc1-27bb-4885-b18f-13e25cd1b5b8",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "cleo",
          "data": {
            "entitlements": [],
            "money": {
              "price": 3960,
              "currency": "USD",
              "commissionPercent": 15,
              "estimatedProceeds": 3366,
              "commissionRule": "smallBusiness"
            },
            "occurredAt": "2026-11-27T19:23:33Z",
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
          "id": "evt_yiytksje55hdznczul4gh5fqje",
          "type": "purchase.refunded",
          "sequence": 43,
          "createdAt": "2026-11-27T19:23:34Z",
          "appId": "5bf8c0a4-f7ce-463b-85b9-52f9630030de",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "ben",
          "data": {
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2027-02-25T19:23:34Z",
            "money": {
              "currency": "EUR",
              "price": -4995,
              "estimatedProceeds": -2938,
              "commissionRule": "standard",
              "taxBasisPoints": 1900,
              "commissionPercent": 30
            },
            "occurredAt": "2026-11-27T19:23:34Z",
            "offer": {
              "name": "retentionOffer",
              "identifier": "STAY",
              "type": 5
            },
            "originalTransactionId": "2000000000000001",
            "periodStart": "2027-01-26T19:23:34Z",
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
          "id": "evt_7mwznjitw5f2leq6fzi7yrmfqa",
          "type": "purchase.refundReversed",
          "sequence": 46,
          "createdAt": "2026-11-27T19:23:34Z",
          "appId": "5bf8c0a4-f7ce-463b-85b9-52f9630030de",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "ben",
          "data": {
            "entitlements": [
              "pro",
              "basic"
            ],
            "expiresDate": "2027-02-25T19:23:34Z",
            "money": {
              "commissionPercent": 30,
              "taxBasisPoints": 1900,
              "estimatedProceeds": 2938,
              "commissionRule": "standard",
              "currency": "EUR",
              "price": 4995
            },
            "occurredAt": "2026-11-27T19:23:34Z",
            "offer": {
              "identifier": "STAY",
              "name": "retentionOffer",
              "type": 5
            },
            "originalTransactionId": "2000000000000001",
            "periodStart": "2027-01-26T19:23:34Z",
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
          "id": "evt_kofiwlsbajestpeq5kid24muwu",
          "type": "purchase.familyRevoked",
          "sequence": 27,
          "createdAt": "2026-11-27T19:23:34Z",
          "appId": "04376fc1-27bb-4885-b18f-13e25cd1b5b8",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "cleo",
          "data": {
            "entitlements": [
              "pro"
            ],
            "familyShared": true,
            "occurredAt": "2026-11-27T19:23:34Z",
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
          "id": "evt_hcfdqigwqbbxfhaalqst4liezq",
          "type": "purchase.transferred",
          "sequence": 29,
          "createdAt": "2026-11-27T19:23:34Z",
          "appId": "04376fc1-27bb-4885-b18f-13e25cd1b5b8",
          "bundleId": "com.example.simulated",
          "environment": "Sandbox",
          "customerId": "dora",
          "data": {
            "entitlements": [
              "basic"
            ],
            "expiresDate": "2026-12-27T19:23:34Z",
            "occurredAt": "2026-11-27T19:23:34Z",
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
