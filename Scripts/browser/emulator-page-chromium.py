#!/usr/bin/env python3
"""Signs in on an HTTP emulator's login page in a real browser (headless Chromium driven by selenium).

Usage: emulator-page-chromium.py URL USERNAME PASSWORD SCREENSHOT PROVIDER_NAME

Opens URL (an authorization request printed by `auth-cli login --browser print`), checks that the page looks like a
login page — its title names the provider, a username and a password field, "Sign in" and "Deny" buttons — saves a
screenshot to SCREENSHOT, signs in, and waits for the app's loopback page ("Signed in").
"""
import pathlib
import sys

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "lib"))
from scripted_browser import chromium  # noqa: E402


def main():
    url, username, password, screenshot, provider = sys.argv[1:6]
    driver = chromium(window_size="900,1000")
    try:
        driver.get(url)
        title = driver.title
        assert title.startswith("Sign in") and provider in title, f"title {title!r} does not name {provider!r}"
        heading = driver.find_element(By.TAG_NAME, "h1").text
        assert provider in heading, f"heading {heading!r} does not name {provider!r}"
        user_field = driver.find_element(By.ID, "username")
        password_field = driver.find_element(By.ID, "password")
        assert password_field.get_attribute("type") == "password"
        sign_in = driver.find_element(By.ID, "sign-in")
        deny = driver.find_element(By.ID, "deny")
        assert sign_in.text == "Sign in" and deny.text == "Deny", (sign_in.text, deny.text)
        assert sign_in.is_displayed() and user_field.is_displayed()
        assert driver.save_screenshot(screenshot), "no screenshot"
        user_field.send_keys(username)
        password_field.send_keys(password)
        sign_in.click()
        WebDriverWait(driver, 20).until(expected_conditions.title_is("Signed in"))
        print(f"{title}: signed in through the page in Chromium; screenshot {screenshot}")
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
