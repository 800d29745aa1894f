"""Verifies App Store signed data with Apple's own App Store Server Library for Python
(pip install app-store-server-library): strict certificate checks, no online checks.

usage: verify_signed_data.py ROOT_DER BUNDLE_ID ENVIRONMENT KIND JWS_FILE
KIND is transaction, renewalInfo, notification or appTransaction. Prints the decoded payload's key field and exits 0,
or prints Apple's VerificationStatus and exits 1. KIND transactionPlan or renewalPlan prints, as JSON, the billing plan
and commitment fields as Apple's library decoded them (its raw values, so one it does not know shows too).
"""
import json
import sys

from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException


def main() -> int:
    root, bundle_id, environment, kind, jws_file = sys.argv[1:]
    with open(root, "rb") as f:
        roots = [f.read()]
    with open(jws_file) as f:
        jws = f.read().strip()
    verifier = SignedDataVerifier(roots, False, Environment(environment), bundle_id, 1234 if environment == "Production" else None)
    try:
        if kind == "transaction":
            print(verifier.verify_and_decode_signed_transaction(jws).transactionId)
        elif kind == "renewalInfo":
            print(verifier.verify_and_decode_renewal_info(jws).originalTransactionId)
        elif kind == "notification":
            print(verifier.verify_and_decode_notification(jws).rawNotificationType)
        elif kind == "transactionPlan":
            t = verifier.verify_and_decode_signed_transaction(jws)
            c = t.commitmentInfo
            print(json.dumps({
                "billingPlanType": t.rawBillingPlanType, "offerType": t.rawOfferType,
                "commitmentInfo": None if c is None else {
                    "billingPeriodNumber": c.billingPeriodNumber, "totalBillingPeriods": c.totalBillingPeriods,
                    "commitmentExpiresDate": c.commitmentExpiresDate, "commitmentPrice": c.commitmentPrice}}, sort_keys=True))
        elif kind == "renewalPlan":
            r = verifier.verify_and_decode_renewal_info(jws)
            c = r.commitmentInfo
            print(json.dumps({
                "renewalBillingPlanType": r.rawRenewalBillingPlanType, "autoRenewStatus": r.rawAutoRenewStatus,
                "commitmentInfo": None if c is None else {
                    "commitmentAutoRenewStatus": c.rawCommitmentAutoRenewStatus, "commitmentAutoRenewProductId": c.commitmentAutoRenewProductId,
                    "commitmentRenewalBillingPlanType": c.rawCommitmentRenewalBillingPlanType, "commitmentRenewalDate": c.commitmentRenewalDate,
                    "commitmentRenewalPrice": c.commitmentRenewalPrice}}, sort_keys=True))
        elif kind == "appTransaction":
            print(verifier.verify_and_decode_app_transaction(jws).appTransactionId)
        else:
            print(f"unknown kind {kind}", file=sys.stderr)
            return 2
    except VerificationException as e:
        print(f"refused: {e.status.name}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
