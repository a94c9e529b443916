"""A small HTML reader for the page tests (stdlib ``html.parser``): the forms of a page with the values a browser
would submit, and the accessibility facts the tests check (labelled controls, duplicate ids, named buttons)."""
from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

#: input types that are not labelled form controls
UNLABELLED_INPUTS = {"hidden", "submit", "button", "reset", "image"}


@dataclass
class Control:
    tag: str
    attrs: dict
    in_label: bool
    form: int | None
    text: str = ""  # a textarea's or a button's text
    options: list = field(default_factory=list)  # a select's (value, selected)

    @property
    def type(self) -> str:
        return (self.attrs.get("type") or ("submit" if self.tag == "button" else "text")).lower()


@dataclass
class Form:
    attrs: dict
    controls: list = field(default_factory=list)

    def data(self, submitter: Control | None = None) -> dict[str, list[str]]:
        """What a browser submits for this form by default (``submitter``: the button pressed, else the first)."""
        out: dict[str, list[str]] = {}

        def add(name, value):
            out.setdefault(name, []).append(value)

        buttons = [c for c in self.controls if c.tag == "button" or c.type in ("submit", "image")]
        pressed = submitter or (buttons[0] if buttons else None)
        for c in self.controls:
            name = c.attrs.get("name")
            if not name or "disabled" in c.attrs:
                continue
            if c.tag == "select":
                chosen = [o[0] for o in c.options if o[1]] or [o[0] for o in c.options[:1]]
                for v in chosen[:1]:
                    add(name, v)
            elif c.tag == "textarea":
                add(name, c.text)
            elif c.tag == "button" or c.type in ("submit", "image"):
                if c is pressed:
                    add(name, c.attrs.get("value", ""))
            elif c.type in ("checkbox", "radio"):
                if "checked" in c.attrs:
                    add(name, c.attrs.get("value", "on"))
            elif c.type not in ("reset", "button", "file"):
                add(name, c.attrs.get("value", ""))
        return out


class PageReader(HTMLParser):
    """Reads a whole page: ``forms``, ``controls`` (every input/select/textarea/button), ``label_for`` (ids named by
    a ``<label for>``), ``ids`` (every id, in order, duplicates kept), ``first_link`` (the first ``<a>``'s attrs)."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self.controls: list[Control] = []
        self.label_for: set[str] = set()
        self.ids: list[str] = []
        self.first_link: dict | None = None
        self._labels = 0
        self._form: int | None = None
        self._open: Control | None = None  # a textarea, button or select being read
        self._option: list | None = None
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        a = {k: (v if v is not None else "") for k, v in attrs}
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "a" and self.first_link is None:
            self.first_link = a
        if tag == "form":
            self.forms.append(Form(a))
            self._form = len(self.forms) - 1
        elif tag == "label":
            self._labels += 1
            if a.get("for"):
                self.label_for.add(a["for"])
        elif tag in ("input", "select", "textarea", "button"):
            control = Control(tag, a, self._labels > 0, self._form)
            self.controls.append(control)
            if self._form is not None:
                self.forms[self._form].controls.append(control)
            if tag != "input":
                self._open = control
        elif tag == "option" and self._open is not None and self._open.tag == "select":
            self._option = [a.get("value"), "selected" in a, ""]
            self._open.options.append(self._option)

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag == "label":
            self._labels = max(0, self._labels - 1)
        elif tag in ("select", "textarea", "button"):
            self._open = None
        elif tag == "option" and self._option is not None:
            if self._option[0] is None:
                self._option[0] = self._option[2].strip()
            self._open.options[-1] = (self._option[0], self._option[1])
            self._option = None

    def handle_data(self, data):
        if self._option is not None:
            self._option[2] += data
        elif self._open is not None and self._open.tag in ("textarea", "button"):
            self._open.text += data

    # -- checks --------------------------------------------------------------------------------------------
    def unlabelled(self) -> list[str]:
        """Form controls without an accessible name: no ``<label for>``, no wrapping label, no ``aria-label``, no
        ``aria-labelledby`` naming an element of the page, no ``title``; buttons without text or ``aria-label``."""
        ids = set(self.ids)
        bad = []
        for c in self.controls:
            a = c.attrs
            if c.tag == "button" or (c.tag == "input" and c.type in ("submit", "button", "reset")):
                if not (c.text.strip() or a.get("aria-label") or a.get("value") or a.get("title")):
                    bad.append(f"<{c.tag} name={a.get('name')!r}> has no text")
                continue
            if c.tag == "input" and c.type in UNLABELLED_INPUTS:
                continue
            named = (c.in_label or (a.get("id") and a["id"] in self.label_for) or a.get("aria-label")
                     or a.get("title")
                     or (a.get("aria-labelledby") and all(i in ids for i in a["aria-labelledby"].split())))
            if not named:
                bad.append(f"<{c.tag} name={a.get('name')!r} id={a.get('id')!r}>")
        return bad

    def duplicate_ids(self) -> list[str]:
        seen, dup = set(), []
        for i in self.ids:
            if i in seen and i not in dup:
                dup.append(i)
            seen.add(i)
        return dup

    def htmx_forms(self) -> list[Form]:
        return [f for f in self.forms if f.attrs.get("hx-post")]
