"""The HTTP emulators' login and device pages as a browser reads them: shared by the scripts that sign in through
them (emulator-browser.py, web-attacks.py, sign-in-load.py)."""
import html.parser


class LoginForm(html.parser.HTMLParser):
    """The page's form: where it posts, its hidden fields (and the device page's user code), the names of the fields a
    person fills in, and the page's title."""

    def __init__(self):
        super().__init__()
        self.action = None
        self.hidden = {}
        self.fields = set()
        self.title = ""
        self._in_title = False

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
