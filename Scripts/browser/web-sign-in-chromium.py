#!/usr/bin/env python3
"""Signs in to the web sign-in sample in a real browser (headless Chromium driven by selenium).

Usage: web-sign-in-chromium.py START_URL LANDING_ORIGIN PROVIDERS_JSON SCREENSHOT_DIR

START_URL is the sample's home page on the instance where the button is clicked; LANDING_ORIGIN is the origin of the
instance the provider redirects back to (another instance: the sign-in started on one completes on the other).
PROVIDERS_JSON maps each provider's route name to [display name, username, password]. For each provider: click
"Sign in with …", log in on the emulator's page, land signed in on LANDING_ORIGIN (its page names the user, the provider
and the instance), check that the session cookie is Secure, HttpOnly and SameSite=Lax and that no token is in the page,
the URL or a readable cookie, then sign out and see the sign-in page again. Screenshots of every step go to
SCREENSHOT_DIR.
"""
import json
import os
import pathlib
import sys

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "lib"))
from scripted_browser import chromium  # noqa: E402


def main():
    start_url, landing_origin, providers_json, screenshots = sys.argv[1:5]
    providers = json.loads(providers_json)
    os.makedirs(screenshots, exist_ok=True)
    driver = chromium(window_size="1000,900")
    wait = WebDriverWait(driver, 20)
    try:
        start_instance = None
        for name, (display, username, password) in providers.items():
            driver.get(start_url)
            wait.until(expected_conditions.title_is("Sign in"))
            start_instance = driver.find_element(By.ID, "instance").text
            button = driver.find_element(By.ID, f"sign-in-{name}")
            assert button.text == f"Sign in with {display}", button.text
            driver.save_screenshot(f"{screenshots}/{name}-1-app.png")
            button.click()

            wait.until(expected_conditions.presence_of_element_located((By.ID, "username")))
            assert driver.title.startswith("Sign in") and driver.current_url != start_url, f"not the provider's login page: {driver.title!r}"
            driver.find_element(By.ID, "username").send_keys(username)
            driver.find_element(By.ID, "password").send_keys(password)
            driver.save_screenshot(f"{screenshots}/{name}-2-provider.png")
            driver.find_element(By.ID, "sign-in").click()

            wait.until(expected_conditions.title_is("Signed in"))
            assert driver.current_url.startswith(landing_origin + "/"), (driver.current_url, landing_origin)
            instance = driver.find_element(By.ID, "instance").text
            greeting = driver.find_element(By.ID, "greeting").text
            shown_provider = driver.find_element(By.ID, "provider").text
            assert shown_provider == display, (shown_provider, display)
            assert greeting.startswith("Hello, ") and len(greeting) > len("Hello, "), greeting
            driver.save_screenshot(f"{screenshots}/{name}-3-signed-in.png")
            cookies = {cookie["name"]: cookie for cookie in driver.get_cookies()}
            session = cookies.get("__Host-auth_session")
            assert session, f"no session cookie: {sorted(cookies)}"
            assert session["secure"] and session["httpOnly"] and session.get("sameSite") == "Lax", session
            assert "__Host-auth_signin" not in cookies, "the sign-in cookie was not cleared"
            readable = driver.execute_script("return document.cookie")
            assert "auth_session" not in readable, "the session cookie is readable from script"
            page = driver.page_source
            for marker in ("access_token", "refresh_token", "id_token", "eyJ"):
                assert marker not in page and marker not in driver.current_url, f"{marker} reached the browser"
            print(f"{name}: started on instance {start_instance}, signed in on instance {instance} as {greeting[7:]!r} with {shown_provider}")

            driver.find_element(By.ID, "sign-out").click()
            wait.until(lambda d: "/auth/logout" not in d.current_url)
            driver.save_screenshot(f"{screenshots}/{name}-4-signed-out.png")
            driver.get(landing_origin + "/")
            wait.until(expected_conditions.title_is("Sign in"))
            assert "__Host-auth_session" not in {cookie["name"] for cookie in driver.get_cookies()}
            print(f"{name}: signed out; the sign-in page again")
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
