"""The scripted browsers every script under Scripts/ drives pages with, in one place.

- `LoginForm`: the HTTP emulators' login and device pages (and any simple form) as a browser reads them.
- `Browser`: a standard-library browser — its own cookies, no redirect followed unless asked, form posting — for the
  emulators' pages, django-oauth-toolkit's pages and the web sign-in sample. The transport is one method, so a load
  generator can swap in keep-alive connections and keep the rest.
- `sign_in_on_emulator`: the emulator's login page filled in and posted, as a person would.
- `chromium`: the one selenium driver factory (headless Chromium from Debian, /usr/bin/chromium and
  /usr/bin/chromedriver); selenium is imported only there, so the standard-library scripts run on any python3.

Scripts elsewhere under Scripts/ import it with:

    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "lib"))
    from scripted_browser import Browser, LoginForm
"""
import html.parser
import urllib.error
import urllib.parse
import urllib.request

EMULATOR_PASSWORD = "emulator-password"


class LoginForm(html.parser.HTMLParser):
    """A page's first form: where it posts, its hidden fields (and the device page's user code), the names of the
    fields a person fills in, and the page's title."""

    def __init__(self, page=None):
        super().__init__()
        self.action = None
        self.hidden = {}
        self.fields = set()
        self.title = ""
        self._in_title = False
        if page is not None:
            self.feed(page.decode() if isinstance(page, bytes) else page)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and self.action is None:
            self.action = attrs.get("action")
        elif tag == "input":
            if attrs.get("name") == "user_code":
                self.hidden["user_code"] = attrs.get("value", "")
                self.fields.add("user_code")
            elif attrs.get("type") == "hidden":
                self.hidden[attrs.get("name")] = attrs.get("value", "")
            elif attrs.get("name"):
                self.fields.add(attrs["name"])
        elif tag == "title":
            self._in_title = True

    def handle_endtag(self, tag):
        if tag == "title":
            self._in_title = False

    def handle_data(self, data):
        if self._in_title:
            self.title += data


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Hands every redirect back to the caller, who decides whether to follow it."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


_OPENER = urllib.request.build_opener(_NoRedirect)


class Browser:
    """One browser: its own cookies, no automatic redirects, forms posted url-encoded.

    With `base` (an origin such as http://127.0.0.1:8802) it keeps the cookies of that origin only, in `cookies`,
    and relative URLs are resolved against it: the web sign-in sample's `__Host-` cookies are `Secure`, which
    http.cookiejar would not send to http://127.0.0.1, and a test hands one origin's cookies to another browser to
    play the same person on another instance. Without `base` it keeps every host:port's cookies apart, in `jars`.
    Cookies are kept by name and value only; a `Max-Age=0` or empty value removes one.
    """

    def __init__(self, base=None, timeout=30):
        self.base = base.rstrip("/") if base else None
        self.timeout = timeout
        self.jars = {}
        if self.base:
            self.jars[urllib.parse.urlsplit(self.base).netloc] = {}

    @property
    def cookies(self):
        """The cookies of `base`."""
        return self.jars[urllib.parse.urlsplit(self.base).netloc]

    @cookies.setter
    def cookies(self, value):
        self.jars[urllib.parse.urlsplit(self.base).netloc] = value

    def _jar(self, url):
        netloc = urllib.parse.urlsplit(url).netloc
        if self.base and netloc != urllib.parse.urlsplit(self.base).netloc:
            return None
        return self.jars.setdefault(netloc, {})

    def send(self, method, url, body, headers, timeout):
        """The transport: returns (status, headers, body) for any status, following no redirect."""
        request = urllib.request.Request(url, data=body, headers=headers, method=method)
        try:
            with _OPENER.open(request, timeout=timeout) as response:
                return response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.headers, error.read()

    def request(self, url, data=None, headers=None, timeout=None, follow=0):
        """GET `url`, or POST `data` (a dict, url-encoded) to it. Relative URLs are resolved against `base`. With
        `follow` > 0, up to that many redirects are followed (as GETs), each answer's cookies kept on the way.
        Returns (status, headers, body bytes) of the last answer."""
        for _ in range(follow + 1):
            if not url.startswith("http"):
                if not self.base:
                    raise ValueError(f"a relative URL ({url}) for a browser without a base")
                url = urllib.parse.urljoin(self.base + "/", url)
            sent = dict(headers or {})
            jar = self._jar(url)
            if jar:
                sent["Cookie"] = "; ".join(f"{name}={value}" for name, value in jar.items())
            body = None
            if data is not None:
                sent["Content-Type"] = "application/x-www-form-urlencoded"
                body = urllib.parse.urlencode(data).encode()
            status, head, content = self.send("POST" if data is not None else "GET", url, body, sent, timeout or self.timeout)
            if jar is not None:
                keep_cookies(jar, head.get_all("Set-Cookie") or [])
            if not (follow and 300 <= status < 400 and head.get("Location")):
                break
            url, data = urllib.parse.urljoin(url, head["Location"]), None
        return status, head, content


def keep_cookies(jar, set_cookie_values):
    """Updates `jar` (name -> value) from Set-Cookie header values: `Max-Age=0` or an empty value removes a cookie."""
    for value in set_cookie_values:
        name, _, rest = value.partition("=")
        cookie_value = rest.split(";", 1)[0]
        if "max-age=0" in value.lower() or cookie_value == "":
            jar.pop(name, None)
        else:
            jar[name] = cookie_value


def sign_in_on_emulator(browser, page_url, username, password=EMULATOR_PASSWORD, action="approve"):
    """Opens the emulator's login page at `page_url`, posts its form with the account and `action` (approve or
    deny), and returns (status, headers) of the form's answer: a 302 to the app's callback when it went through."""
    status, _, page = browser.request(page_url)
    if status != 200:
        raise AssertionError(f"the emulator's login page answered {status}")
    form = LoginForm(page)
    fields = {**form.hidden, "username": username, "password": password, "action": action}
    status, head, _ = browser.request(urllib.parse.urljoin(page_url, form.action), data=fields)
    return status, head


def chromium(window_size="1000,900", page_load_timeout=30):
    """A headless Chromium (Debian's /usr/bin/chromium and /usr/bin/chromedriver) driven by selenium, the one
    configuration every browser check uses. Scripts/browser/setup.sh installs them and prints the Python to run."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={window_size}"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(page_load_timeout)
    return driver
