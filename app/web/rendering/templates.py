"""Jinja rendering: whole pages, or named blocks of the same page template as htmx fragments.

Templates get plain data and translate through ``_``/``ngettext``/``pgettext``, which read the
request's catalog from a context variable set only for the duration of one render — the
environment is shared by all requests and threads.
"""

from __future__ import annotations

import contextvars
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

import jinja2
from babel.support import NullTranslations
from markupsafe import Markup, escape

from app.i18n import translations
from app.web.rendering.assets import Assets
from app.web.rendering.board_markup import TEMPLATES_DIR as TEMPLATES_DIR
from app.web.rendering.board_markup import JoinedLines
from app.web.rendering.infobar import clock_text

THEME_COLOURS: Final = {"light": "#0f5c3a", "dark": "#23272b"}
"""The browser's bar in each theme: the felt of static/css/app.css (the dark one a charcoal
table since issue 35); base.html names them, static/js/settings.js switches them."""

_current: contextvars.ContextVar[NullTranslations] = contextvars.ContextVar("translations")


def _gettext(message: str) -> str:
    return _current.get().gettext(message)


def _ngettext(singular: str, plural: str, n: int) -> str:
    return _current.get().ngettext(singular, plural, n)


def _pgettext(context: str, message: str) -> str:
    return str(_current.get().pgettext(context, message))


class CompiledTemplates(jinja2.BytecodeCache):
    """Compiled templates kept in memory for the process, keyed by template and source (one
    per kind of environment: another environment's settings compile other code)."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()

    def clear(self) -> None:
        self._code.clear()


COMPILED: Final = CompiledTemplates()
"""The pages' environments' compiled templates (:class:`app.web.rendering.templates.Renderer`)."""

TOKEN_MARK: Final = "\x00kept-token\x00"
HERE_MARK: Final = "\x00kept-here\x00"
"""Stand for the form token and the page's path in a kept partial (:meth:`Renderer.kept`)."""

KEPT_MAX: Final = 4096
"""Kept partials per renderer at most (the settings panel: 3 languages × 1,152 settings)."""


def current_step(move_list: Markup, step: int) -> Markup:
    """A kept move list (``partials/move_list.html``) with the step shown marked current."""
    item = f'<li data-step="{step}">'
    return Markup(str(move_list).replace(item, f'<li aria-current="step" data-step="{step}">', 1))


def _hashable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return tuple(value.items())
    if isinstance(value, list):
        return tuple(value)
    return value


class Renderer:
    """One Jinja environment for the application (autoescaped, strict about undefined names)."""

    def __init__(self, assets: Assets, directory: Path = TEMPLATES_DIR) -> None:
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(directory),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
            extensions=["jinja2.ext.i18n", JoinedLines],  # a page may import board macros
            trim_blocks=True,
            lstrip_blocks=True,
            auto_reload=False,  # templates ship with the code: no stat() per render
            bytecode_cache=COMPILED,  # compiled once a process (app/web/edge/warmup.py)
        )
        self.env.install_gettext_callables(  # type: ignore[attr-defined]
            _gettext, _ngettext, newstyle=True, pgettext=_pgettext
        )
        self.env.globals["asset_url"] = assets.url
        self.env.globals["theme_colours"] = THEME_COLOURS
        self.env.filters["clock"] = clock_text
        self.env.filters["current_step"] = current_step
        self.env.globals["kept"] = jinja2.pass_context(
            lambda context, name, *depends: self.kept(context, name, *depends)
        )
        self._partials: dict[tuple[str, str], str] = {}
        self._kept: dict[tuple[Any, ...], str] = {}

    @contextmanager
    def _language(self, t: NullTranslations) -> Iterator[None]:
        token = _current.set(t)
        try:
            yield
        finally:
            _current.reset(token)

    def partial(self, name: str, lang: str) -> str:
        """A template without variables (a list of shortcuts) in a language, rendered once."""
        key = (name, lang)
        if key not in self._partials:
            self._partials[key] = self.page(name, {}, translations(lang))
        return self._partials[key]

    def kept(self, context: jinja2.runtime.Context, name: str, *depends: Any) -> Markup:
        """``{{ kept("partials/settings.html", lang, session.hints, …) }}``: the partial as
        ``{% include %}`` draws it, drawn once for the values it ``depends`` on (all it reads,
        but the form token and the page's path, which are filled in) in the language being
        rendered, then kept: a page's fixed parts are not drawn again per request."""
        t = _current.get()
        key = (name, t, *map(_hashable, depends))
        html = self._kept.get(key)
        if html is None:
            values = context.get_all() | {"token": TOKEN_MARK, "here": HERE_MARK}
            html = self.env.get_template(name).render(values)
            if len(self._kept) >= KEPT_MAX:
                self._kept.clear()
            self._kept[key] = html
        token, here = escape(context["token"]), escape(context["here"])
        return Markup(html.replace(TOKEN_MARK, token).replace(HERE_MARK, here))

    def page(self, name: str, context: Mapping[str, Any], t: NullTranslations) -> str:
        with self._language(t):
            return self.env.get_template(name).render(context)

    def blocks(
        self, name: str, blocks: Sequence[str], context: Mapping[str, Any], t: NullTranslations
    ) -> str:
        """Named blocks of a page template, concatenated: the fragment htmx swaps in."""
        template = self.env.get_template(name)
        with self._language(t):
            parts = []
            for block in blocks:
                ctx = template.new_context(dict(context))
                parts.append("".join(template.blocks[block](ctx)))
            return "".join(parts)
