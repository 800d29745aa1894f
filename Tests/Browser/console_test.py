#!/usr/bin/env python3
"""The support console in a real browser: Debian's Chromium, driven by Selenium through chromedriver.

Run by ConsoleBrowserTests (Tests/StoregateTests), which starts Storegate with the App Store simulator,
a tenant with a customer and console users, and another tenant. It signs in, finds the customer by an
order ID pasted with spaces around it, extends a renewal date and sees the new date, grants an entitlement,
adds a support note and sets and removes an attribute, pages a long timeline back and forth, sees a refunded
subscription shown as revoked with nothing to extend, posts a form without its CSRF token, tries another
tenant's customer by URL, signs out, checks that a viewer cannot act nor read the audit log, and that an
admin reads what support did there and filters it.
Screenshots go to --screenshots. Exit status 0 when every check held; each failure is printed.
"""
import argparse
import csv
import io
import json
import os
import ssl
import sys
import urllib.error
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        failures.append(what)


def left_the_document(element):
    """Selenium's staleness_of, also for the other answer chromedriver gives while the page is being replaced
    ("Node with given id does not belong to the document"), which staleness_of lets through as an error."""
    def predicate(_):
        try:
            element.is_enabled()
            return False
        except StaleElementReferenceException:
            return True
        except WebDriverException as error:
            if "does not belong to the document" in str(error):
                return True
            raise
    return predicate


def browser():
    options = Options()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1100"]:
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=options)


def main():
    parser = argparse.ArgumentParser()
    for name in ["url", "tenant", "email", "password", "viewer-email", "viewer-password", "admin-email", "admin-password", "order-id",
                 "customer", "other-customer", "timeline-customer", "revoked-customer", "erasable-customer", "screenshots"]:
        parser.add_argument("--" + name, required=True)
    a = parser.parse_args()
    os.makedirs(a.screenshots, exist_ok=True)
    driver = browser()
    wait = WebDriverWait(driver, 20)

    def shot(name):
        driver.save_screenshot(os.path.join(a.screenshots, name + ".png"))

    def heading():
        return driver.find_element(By.TAG_NAME, "h1").text

    def open_page(path):
        driver.get(a.url + path)
        wait.until(EC.presence_of_element_located((By.TAG_NAME, "h1")))

    def sign_in(email, password):
        open_page("/console/sign-in")
        driver.find_element(By.ID, "tenant").send_keys(a.tenant)
        driver.find_element(By.ID, "email").send_keys(email)
        driver.find_element(By.ID, "password").send_keys(password)

    def submit(element):
        element.click()
        wait.until(left_the_document(element))
        wait.until(EC.presence_of_element_located((By.TAG_NAME, "h1")))

    def customer_url(customer):
        return "/console/customer?id=" + urllib.parse.quote(customer, safe="")

    try:
        # Signing in: a wrong password is refused; the right one opens the overview.
        sign_in(a.email, "not the password at all")
        submit(driver.find_element(By.ID, "sign-in"))
        check("not right" in driver.find_element(By.ID, "error").text, "a wrong password is refused with a clear message")
        sign_in(a.email, a.password)
        shot("1-sign-in")
        submit(driver.find_element(By.ID, "sign-in"))
        check(heading() == "Overview", "signed in, the overview is shown")
        charts = driver.find_elements(By.CSS_SELECTOR, "svg.chart")
        titles = [c.text.split("\n")[0] for c in driver.find_elements(By.CSS_SELECTOR, "figure.card figcaption")]
        check(len(charts) >= 5 and "Active subscriptions" in titles[0], "the overview charts its figures for 30 days: %s" % titles)
        check(any(t.startswith("Revenue (") for t in titles) and any(t.startswith("MRR (") for t in titles), "money charted by currency: %s" % titles)
        # Another range and step, from the form: the charts follow, and a chart's CSV is its data.
        Select(driver.find_element(By.NAME, "step")).select_by_value("week")
        submit(driver.find_element(By.ID, "show-figures"))
        check("step=week" in driver.current_url and len(driver.find_elements(By.CSS_SELECTOR, "svg.chart")) == len(charts),
              "the form shows the figures by week")
        href = driver.find_element(By.CSS_SELECTOR, "figure.card a.csv").get_attribute("href")
        # The page's policy lets no script fetch: the download is fetched as the browser would, with its session cookie.
        session = driver.get_cookie("__Host-storegate-session")["value"]
        request = urllib.request.Request(href, headers={"Cookie": "__Host-storegate-session=" + session})
        with urllib.request.urlopen(request, context=ssl._create_unverified_context(), timeout=20) as response:
            check(response.headers.get("Content-Type") == "text/csv; charset=utf-8" and "attachment" in response.headers.get("Content-Disposition", ""),
                  "the CSV link is a download")
            csv_text = response.read().decode()
        rows = list(csv.reader(io.StringIO(csv_text)))
        check(rows[0] == ["period", "Active subscriptions"] and len(rows) >= 5 and all(len(r) == 2 for r in rows),
              "a chart's CSV opens as its periods and values (%d rows)" % len(rows))
        # The cohort table and ARPU by month, each with its CSV.
        check(len(driver.find_elements(By.CSS_SELECTOR, "#cohorts tbody tr")) >= 1 and len(driver.find_elements(By.CSS_SELECTOR, "#arpu tbody tr")) >= 1,
              "the overview shows the cohorts and ARPU by month")
        for link, header in [("cohorts-csv", "cohort,customers,monthsLater,month,subscribed,share,currency,netRevenue,netProceeds"),
                             ("arpu-csv", "month,activeCustomers,currency,netRevenue,arpu")]:
            request = urllib.request.Request(driver.find_element(By.ID, link).get_attribute("href"),
                                             headers={"Cookie": "__Host-storegate-session=" + session})
            with urllib.request.urlopen(request, context=ssl._create_unverified_context(), timeout=20) as response:
                table = list(csv.reader(io.StringIO(response.read().decode())))
            check(table[0] == header.split(",") and all(len(r) == len(table[0]) for r in table), "%s opens as a table (%d rows)" % (link, len(table)))
        driver.get(a.url + "/console")
        cookie = driver.get_cookie("__Host-storegate-session")
        check(cookie is not None and cookie.get("secure") and cookie.get("httpOnly") and cookie.get("sameSite") == "Strict",
              "the session cookie is Secure, HttpOnly and SameSite=Strict: %s" % {k: cookie.get(k) for k in ("secure", "httpOnly", "sameSite")}
              if cookie else "the session cookie is set")
        shot("2-overview")
        # The tenant's data-retention windows: the one it set (events, a day) and the defaults.
        windows = {row.get_attribute("data-kind"): [cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
                   for row in driver.find_elements(By.CSS_SELECTOR, "#retention-windows tbody tr")}
        check(len(windows) == 5 and windows.get("events", [])[1:3] == ["1 day", "the tenant"]
              and windows.get("notificationPayloads", [])[1:3] == ["180 days", "default"]
              and windows.get("auditEntries", [])[1:3] == ["730 days", "default"],
              "the overview says the data-retention windows: %s" % windows)

        # Finding the customer by the order ID from their invoice, pasted with spaces around it (sent as q=++M…+).
        search = driver.find_element(By.ID, "q")
        search.send_keys("  " + a.order_id + " ")
        submit(driver.find_element(By.CSS_SELECTOR, "form.search button"))
        check(a.customer in heading(), "the order ID with spaces around it finds the customer (%s)" % heading())
        shot("3-customer")

        # Extending the renewal date: the new date is shown.
        before = driver.find_element(By.CSS_SELECTOR, ".subscription .expires").text
        days = driver.find_element(By.CSS_SELECTOR, ".subscription input[name=days]")
        days.clear()
        days.send_keys("10")
        submit(driver.find_element(By.CSS_SELECTOR, ".subscription button.extend"))
        after = driver.find_element(By.CSS_SELECTOR, ".subscription .expires").text
        check("extended" in driver.find_element(By.CLASS_NAME, "flash").text, "the extension is confirmed")
        check(after > before, "the renewal date moved later: %s -> %s" % (before, after))
        shot("4-extended")

        # Bad input names the field, and nothing is written (a blank reason passes the browser's check, not Storegate's).
        driver.find_element(By.ID, "entitlement").send_keys("premium")
        driver.find_element(By.ID, "grant-reason").send_keys("   ")
        submit(driver.find_element(By.ID, "grant"))
        check("reason" in driver.find_element(By.ID, "error").text, "a grant with a blank reason is refused naming the field")
        check(len(driver.find_elements(By.CSS_SELECTOR, "tr.grant")) == 0, "nothing was granted")

        # Granting an entitlement.
        driver.find_element(By.ID, "entitlement").send_keys("premium")
        driver.find_element(By.ID, "grant-reason").send_keys("the outage on Tuesday")
        submit(driver.find_element(By.ID, "grant"))
        rows = driver.find_elements(By.CSS_SELECTOR, "tr.grant")
        check(len(rows) == 1 and "premium" in rows[0].text and "active" in rows[0].text, "the grant is listed as active")
        check(not driver.find_elements(By.ID, "erase-form"), "support is not offered to erase the customer")
        shot("5-granted")

        # A support note (its lines kept, its author the person signed in) and an attribute set, then removed.
        driver.find_element(By.ID, "note-text").send_keys("Called about the outage.\nPromised a week free.")
        submit(driver.find_element(By.ID, "add-note"))
        notes = driver.find_elements(By.CSS_SELECTOR, "li.note")
        check(len(notes) == 1 and "Called about the outage.\nPromised a week free." in notes[0].text and a.email in notes[0].text,
              "the note is shown with its lines and its author")
        driver.find_element(By.ID, "attribute-key").send_keys("plan")
        driver.find_element(By.ID, "attribute-value").send_keys("team")
        submit(driver.find_element(By.ID, "set-attribute"))
        attributes = driver.find_elements(By.CSS_SELECTOR, "tr.attribute")
        check(len(attributes) == 1 and "plan" in attributes[0].text and "team" in attributes[0].text, "the attribute is set")
        submit(attributes[0].find_element(By.TAG_NAME, "button"))
        check(not driver.find_elements(By.CSS_SELECTOR, "tr.attribute"), "the attribute is removed")

        # The customer's export (GDPR Art. 15): a JSON download, fetched with the page's session, naming them and holding the note.
        request = urllib.request.Request(driver.find_element(By.ID, "export").get_attribute("href"),
                                         headers={"Cookie": "__Host-storegate-session=" + driver.get_cookie("__Host-storegate-session")["value"]})
        with urllib.request.urlopen(request, context=ssl._create_unverified_context(), timeout=20) as response:
            check(response.headers.get("Content-Type") == "application/json; charset=utf-8"
                  and "attachment" in response.headers.get("Content-Disposition", ""), "the export link is a JSON download")
            document = json.loads(response.read().decode())
        check(document["formatVersion"] == 1 and document["customer"]["customerId"] == a.customer and len(document["notes"]) == 1
              and len(document["grants"]) == 1, "the export parses and names the customer, with their note and grant")

        # A long timeline: the newest events first, in sentences; "Earlier events" and "Later events" page both ways.
        def timeline():
            return [item.find_element(By.CLASS_NAME, "sentence").text for item in driver.find_elements(By.CSS_SELECTOR, "li.event")]

        def pager():
            return {link.get_attribute("id") for link in driver.find_elements(By.CSS_SELECTOR, "nav.pager a")}

        open_page(customer_url(a.timeline_customer))
        newest = timeline()
        check(len(newest) == 50 and pager() == {"earlier-events"}, "the timeline opens on 50 events, with only earlier ones to go to (%d, %s)"
              % (len(newest), pager()))
        check(any(line.startswith("Renewed ") for line in newest[:2]) and not any("purchase.created" in line for line in newest),
              "its lines are sentences, the newest a renewal: %s" % newest[:2])
        first = driver.find_element(By.CSS_SELECTOR, "li.event details")
        check(not first.get_attribute("open") and not first.find_element(By.TAG_NAME, "dl").is_displayed(), "identifiers are folded away")
        first.find_element(By.TAG_NAME, "summary").click()
        wait.until(lambda _: first.find_element(By.TAG_NAME, "dl").is_displayed())
        check("evt_" in first.text and "originalTransactionId" in first.text, "unfolded, they show the event's ID and the transaction IDs")
        submit(driver.find_element(By.ID, "earlier-events"))
        earlier = timeline()
        check(0 < len(earlier) < 50 and pager() == {"later-events"}, "Earlier events shows the rest, with later ones to go back to (%d, %s)"
              % (len(earlier), pager()))
        # Events are in the order Storegate learnt of them: Apple may deliver the first purchase's notification
        # after a renewal's (a failed attempt is sent again later), so it is on one of the two pages, not
        # always the last line.
        check(any(line.startswith("Subscribed to ") for line in newest + earlier), "the first purchase is on the timeline: %s" % earlier[-3:])
        shot("8-timeline-earlier")
        submit(driver.find_element(By.ID, "later-events"))
        check(timeline() == newest and pager() == {"earlier-events"}, "Later events comes back to the newest page")

        # A refunded subscription: shown as revoked, with no renewal and nothing to extend.
        open_page(customer_url(a.revoked_customer))
        standing = driver.find_element(By.CSS_SELECTOR, ".subscription .standing").text
        check(standing.startswith("Refunded on ") and standing.endswith("access revoked"), "the refund is said: %s" % standing)
        check(not driver.find_elements(By.CSS_SELECTOR, ".subscription .renewal") and not driver.find_elements(By.CSS_SELECTOR, "button.extend"),
              "a revoked subscription shows no renewal and no Extend form")
        shot("9-revoked")
        open_page(customer_url(a.customer))

        # A form posted without its CSRF token is refused and changes nothing.
        driver.execute_script("document.querySelector('#grant-form input[name=csrf]').remove()")
        driver.find_element(By.ID, "entitlement").send_keys("premium")
        driver.find_element(By.ID, "grant-reason").send_keys("forged")
        submit(driver.find_element(By.ID, "grant"))
        check(heading() == "Form refused", "a form without its CSRF token is refused (%s)" % heading())
        open_page(customer_url(a.customer))
        check(len(driver.find_elements(By.CSS_SELECTOR, "tr.grant")) == 1, "the refused form granted nothing")

        # Another tenant's customer is not reachable, by URL or by search.
        open_page(customer_url(a.other_customer))
        check(heading() == "Not found", "another tenant's customer is not found by URL")
        open_page("/console/search?q=" + urllib.parse.quote(a.other_customer))
        check(heading() == "Not found", "another tenant's customer is not found by search")

        # Signing out ends the session.
        submit(driver.find_element(By.ID, "sign-out"))
        check(heading() == "Sign in", "signed out")
        open_page(customer_url(a.customer))
        check(heading() == "Sign in", "after signing out the customer page asks to sign in")

        # A viewer reads but cannot act.
        sign_in(a.viewer_email, a.viewer_password)
        submit(driver.find_element(By.ID, "sign-in"))
        open_page(customer_url(a.customer))
        check(not driver.find_elements(By.CSS_SELECTOR, "button.extend") and not driver.find_elements(By.ID, "grant-form")
              and not driver.find_elements(By.ID, "note-form") and not driver.find_elements(By.CSS_SELECTOR, "button.delete-note"),
              "a viewer is shown no actions")
        check(len(driver.find_elements(By.CSS_SELECTOR, "li.note")) == 1, "a viewer reads the notes")
        check(len(driver.find_elements(By.ID, "export")) == 1, "a viewer may download the customer's export")
        shot("6-viewer")
        driver.execute_script("""
            const token = document.querySelector('input[name=csrf]').value;
            const form = document.createElement('form');
            form.method = 'post'; form.action = '/console/customer/grant';
            for (const [name, value] of [['csrf', token], ['customerId', arguments[0]], ['entitlement', 'premium'], ['days', '3'], ['reason', 'viewer']]) {
                const input = document.createElement('input'); input.name = name; input.value = value; form.appendChild(input);
            }
            document.body.appendChild(form); form.submit();""", a.customer)
        wait.until(EC.text_to_be_present_in_element((By.TAG_NAME, "h1"), "Not allowed"))
        check(heading() == "Not allowed", "a viewer's posted action is refused")
        open_page(customer_url(a.customer))
        check(len(driver.find_elements(By.CSS_SELECTOR, "tr.grant")) == 1, "the viewer granted nothing")
        # Nor does a viewer read the audit log: no link to it, and the page itself is refused with 403.
        check(not driver.find_elements(By.ID, "audit-link"), "a viewer is shown no link to the audit log")
        open_page("/console/audit")
        check(heading() == "Not allowed" and not driver.find_elements(By.ID, "audit"), "a viewer is refused the audit log")
        request = urllib.request.Request(a.url + "/console/audit",
                                         headers={"Cookie": "__Host-storegate-session=" + driver.get_cookie("__Host-storegate-session")["value"]})
        try:
            urllib.request.urlopen(request, context=ssl._create_unverified_context(), timeout=20)
            status = 200
        except urllib.error.HTTPError as error:
            status = error.code
        check(status == 403, "the audit page answers a viewer 403 (%d)" % status)

        # Readable on a phone: the customer, and the overview's figures, with nothing wider than the screen
        # but the tables, which scroll in their own box.
        driver.set_window_size(390, 1400)
        open_page(customer_url(a.customer))
        shot("7-phone")
        open_page("/console")
        wide = driver.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        check(wide <= 0, "the overview fits a phone's width (%d px too wide)" % wide)
        driver.execute_script("document.getElementById('cohorts-heading').scrollIntoView()")
        shot("10-phone-cohorts")

        # An admin reads the audit log: what support did above, by whom and for whom, filtered by action and customer.
        driver.set_window_size(1280, 1100)
        submit(driver.find_element(By.ID, "sign-out"))
        sign_in(a.admin_email, a.admin_password)
        submit(driver.find_element(By.ID, "sign-in"))
        submit(driver.find_element(By.ID, "audit-link"))

        def entries():
            return [{cell: row.find_element(By.CLASS_NAME, cell).text for cell in ("when", "actor", "action", "customer", "detail")}
                    for row in driver.find_elements(By.CSS_SELECTOR, "tr.audit-entry")]

        listed = entries()
        support = "console:" + a.email
        check(heading() == "Audit log" and any(e["action"] == "entitlement.grant" and e["actor"] == support and e["customer"] == a.customer
                                                 for e in listed), "the admin sees support's grant, by whom and for whom")
        check(any(e["action"] == "apple.extendRenewalDate" and e["actor"] == support and "extendByDays" in e["detail"] for e in listed),
              "and the renewal-date extension, with its detail")
        check(any(e["action"] == "console.signIn" for e in listed) and all(e["when"].endswith("UTC") for e in listed),
              "sign-ins are there too, each entry with its time")
        driver.find_element(By.ID, "audit-action").send_keys("entitlement.")
        submit(driver.find_element(By.ID, "filter-audit"))
        filtered = entries()
        check(filtered and all(e["action"].startswith("entitlement.") for e in filtered) and "action=entitlement." in driver.current_url,
              "filtered by an action prefix: %s" % [e["action"] for e in filtered])
        driver.find_element(By.ID, "audit-action").clear()
        driver.find_element(By.ID, "audit-customer").send_keys(a.customer)
        submit(driver.find_element(By.ID, "filter-audit"))
        about = entries()
        check(about and all(e["customer"] == a.customer for e in about), "filtered by customer: %d entries, all about %s" % (len(about), a.customer))
        open_page("/console/audit?customer=" + urllib.parse.quote(a.other_customer))
        check(not entries(), "another tenant's customer has no entries here")
        open_page("/console/audit")
        shot("11-audit")
        driver.set_window_size(390, 1400)
        open_page("/console/audit")
        wide = driver.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        check(wide <= 0, "the audit page fits a phone's width, each entry a block (%d px too wide)" % wide)
        shot("12-phone-audit")

        # An admin erases a customer (GDPR Art. 17): the id typed again, a mistyped one refused naming the field.
        driver.set_window_size(1280, 1100)
        open_page(customer_url(a.erasable_customer))
        driver.find_element(By.ID, "erase-confirm").send_keys(a.erasable_customer + "x")
        submit(driver.find_element(By.ID, "erase"))
        check("confirm" in driver.find_element(By.ID, "error").text, "a mistyped confirmation is refused naming the field")
        driver.find_element(By.ID, "erase-confirm").send_keys(a.erasable_customer)
        shot("13-erase")
        submit(driver.find_element(By.ID, "erase"))
        said = driver.find_element(By.TAG_NAME, "main").text
        check(heading() == "Customer erased" and "erased as ers_" in said, "the erasure says what it did")
        open_page(customer_url(a.erasable_customer))
        check(heading() == "Not found", "the customer's page is gone")
        open_page("/console/audit?action=customer.delete")
        erased = entries()
        check(len(erased) == 1 and erased[0]["actor"] == "console:" + a.admin_email and erased[0]["customer"].startswith("ers_"),
              "the audit log names the erasure, not the customer: %s" % erased)
    finally:
        driver.quit()
    if failures:
        print("%d check(s) failed" % len(failures), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
