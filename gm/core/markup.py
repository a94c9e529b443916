"""BBCode for the game thread (FM-9.1): rendering with the ``bbcode`` library, sanitising with ``nh3``, and the
split of a post's ``[private="Name"]…[/private]`` part (FM-9.2) from its public text.

Two layers, on purpose: ``bbcode`` escapes every ``<``/``>``/``&``/quote in the text and drops ``javascript:``,
``data:`` and ``vbscript:`` links, then ``nh3`` (the Ammonia sanitiser) keeps only the tags and attributes the
formatters below produce, only ``http``/``https``/``mailto`` URLs, no event attributes, no style but a colour, an
alignment and a list style, and sets ``rel="nofollow noopener"`` on every link. A bug in either one alone does not
make a post executable. Relative URLs are dropped too: only absolute links survive.

Nothing here reads the database or knows a game: :func:`render` takes text, :func:`split_private` takes text and
returns text; the services store, the visibility layer decides who reads what.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass

import bbcode
import nh3
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_noop

#: Tags nested deeper than this render their content as plain text (bounds recursion and work on hostile input).
MAX_TAG_DEPTH = 12

_SAFE_SCHEMES = {"http", "https", "mailto"}
_UNSAFE_SCHEME = re.compile(r"^\s*(javascript|data|vbscript)\s*:", re.I)
_HTTP_URL = re.compile(r"^https?://[^\s\"'<>]+$", re.I)

_CLEANER = nh3.Cleaner(
    tags={"a", "strong", "em", "u", "s", "sub", "sup", "br", "hr", "ul", "ol", "li", "blockquote", "cite", "code",
          "pre", "span", "div", "img"},
    attributes={"a": {"href"}, "img": {"src", "alt", "loading"}, "span": {"style"}, "div": {"style"},
                "ol": {"style"}},
    allowed_classes={"blockquote": {"quote"}},
    clean_content_tags={"script", "style"},
    url_schemes=_SAFE_SCHEMES,
    # Only absolute links: a "relative" URL is either a mistake or a trick (``&#106;avascript:``, ``//host``).
    url_relative="deny",
    link_rel="nofollow noopener",
    filter_style_properties={"color", "text-align", "list-style-type"},
    strip_comments=True,
)


def _scheme_of(href: str) -> str:
    """The scheme the browser would see: letters of the part before the first colon, whitespace and control
    characters removed (``java\\tscript:`` is ``javascript``)."""
    return re.sub(r"[^a-z0-9+]", "", href.lower().split(":", 1)[0]) if ":" in href else ""


def _render_quote(tag_name, value, options, parent, context):
    # ``[quote="Name"]`` (or ``[quote=Name]``): the library does not escape option values, so the name is escaped here.
    name = (options or {}).get("quote", "").strip()
    cite = f"<cite>{html.escape(name, quote=True)}</cite>" if name else ""
    return f'<blockquote class="quote">{cite}{value}</blockquote>'


def _render_img(tag_name, value, options, parent, context):
    # ``value`` is already HTML-escaped text (render_embedded=False). Only absolute http(s) URLs become images;
    # anything else stays visible as text so the reader sees what was written.
    src = html.unescape(value).strip()
    if _UNSAFE_SCHEME.match(src) or _scheme_of(src) in ("javascript", "data", "vbscript") or not _HTTP_URL.match(src):
        return html.escape(src)
    return f'<img src="{html.escape(src, quote=True)}" alt="" loading="lazy">'


def _parser(*, with_private: bool = False) -> bbcode.Parser:
    parser = bbcode.Parser(
        newline="<br>", install_defaults=True, escape_html=True, replace_links=True, replace_cosmetic=False,
        drop_unrecognized=False, max_tag_depth=MAX_TAG_DEPTH, url_template='<a href="{href}">{text}</a>',
    )
    parser.add_simple_formatter("s", "<s>%(value)s</s>")
    parser.add_formatter("quote", _render_quote, strip=True, swallow_trailing_newline=True)
    parser.add_simple_formatter("code", "<pre><code>%(value)s</code></pre>", render_embedded=False,
                                transform_newlines=False, swallow_trailing_newline=True, replace_cosmetic=False,
                                replace_links=False)
    parser.add_formatter("img", _render_img, render_embedded=False, replace_links=False, replace_cosmetic=False)
    if with_private:  # only to find the tag; a stored body never holds one (see split_private)
        parser.add_formatter("private", lambda *a: "", render_embedded=False)
    return parser


_RENDERER = _parser()
_SPLITTER = _parser(with_private=True)


def sanitise(markup: str) -> SafeString:
    """``markup`` (HTML) cleaned by the thread's nh3 policy; safe to put in a page as it is."""
    return mark_safe(_CLEANER.clean(markup))  # noqa: S308 — nh3 output is the sanitised HTML


def render(text: str) -> SafeString:
    """BBCode ``text`` as sanitised HTML (see the module docstring for what survives). Never raises on any input."""
    return sanitise(_RENDERER.format(text or ""))


def quote(author: str, text: str) -> str:
    """The BBCode a quote button puts into the reply box: ``[quote="author"]text[/quote]`` plus a blank line. A
    double quote in the name would end the option early, so it becomes a typographic one."""
    return f'[quote="{author.replace(chr(34), "”")}"]{text.strip()}[/quote]\n'


# -- private messages (FM-9.2) ---------------------------------------------------------------------------------

#: Any spelling a writer may have meant as a private tag (``[private``, ``[ PRIVATE``, ``[/private``…). Counting them
#: against the tags the parser recognised catches a malformed tag before its text could be published by mistake.
_PRIVATE_MENTION = re.compile(r"\[\s*/?\s*private\b", re.I)


class MarkupError(ValueError):
    """A post's BBCode is refused. ``message`` is a translatable msgid (``gettext_noop`` style), ``params`` fill it."""

    def __init__(self, message: str, **params):
        self.message = message
        self.params = params
        super().__init__(message % params if params else message)


@dataclass(frozen=True)
class PrivatePart:
    """The private part of a post: ``recipient`` is the name as written in ``[private="…"]`` (stripped), ``text``
    the BBCode between the tags (stripped, not empty)."""

    recipient: str
    text: str


def mentions_private(text: str) -> bool:
    """Whether ``text`` contains anything that looks like a private tag (opening or closing, any case)."""
    return bool(_PRIVATE_MENTION.search(text or ""))


def split_private(text: str) -> tuple[str, PrivatePart | None]:
    """Split a post's BBCode into its public text and at most one private part (FM-9.2).

    ``text`` is the post as written. Returns ``(public_text, part)``: ``public_text`` is ``text`` with the whole
    ``[private="Name"]…[/private]`` block removed (newlines normalised to ``\\n``), ``part`` the
    :class:`PrivatePart` or ``None`` when there is no private tag.

    Raises :class:`MarkupError` (FM-9.2) for more than one private tag, a private tag inside another, a tag without
    a recipient name, an empty private text, and any malformed or unclosed private tag — refusing rather than
    publishing what was meant to be private.
    """
    text = (text or "").replace("\r\n", "\n").replace("\r", "\n")
    mentions = len(_PRIVATE_MENTION.findall(text))
    if not mentions:
        return text, None
    tokens = _SPLITTER.tokenize(text)
    starts = [i for i, t in enumerate(tokens) if t[0] == bbcode.Parser.TOKEN_TAG_START and t[1] == "private"]
    ends = [i for i, t in enumerate(tokens) if t[0] == bbcode.Parser.TOKEN_TAG_END and t[1] == "private"]
    if len(starts) > 1 or len(ends) > 1:
        raise MarkupError(gettext_noop("A post may hold only one private message, and a private message can't hold "
                                       "another."))
    if len(starts) != 1 or len(ends) != 1 or ends[0] < starts[0] or len(starts) + len(ends) != mentions:
        raise MarkupError(gettext_noop('Write a private message as [private="Name"]text[/private].'))
    start, end = starts[0], ends[0]
    recipient = str((tokens[start][2] or {}).get("private", "")).strip()
    if not recipient:
        raise MarkupError(gettext_noop('Name the recipient: [private="Name"]text[/private].'))
    inner = "".join(t[3] for t in tokens[start + 1:end]).strip()
    if not inner:
        raise MarkupError(gettext_noop("The private message is empty."))
    public = "".join(t[3] for t in tokens[:start]) + "".join(t[3] for t in tokens[end + 1:])
    return public.strip(), PrivatePart(recipient=recipient, text=inner)
