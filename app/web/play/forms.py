"""Action forms: read once, validated once, their fields the engine's own values.

Every game action's form is an :class:`ActionForm` (the form token, and no field the route does
not name) whose fields the engine's parsers read (:func:`parsed`); :func:`read_form` reads a
POST's body once and validates it against the form's deal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Final, TypeVar
from urllib.parse import parse_qsl

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ConfigDict, Field, PlainValidator, ValidationError, ValidationInfo
from pydantic_core import PydanticCustomError

from app.engine.cards import Card
from app.engine.codes import DealCode
from app.web.edge.errors import CARD_HELP


class ActionForm(BaseModel):
    """What every action's form has: the form token (:func:`~app.web.players.sessions.check_token`),
    and no field the route does not name."""

    model_config = ConfigDict(extra="forbid")
    token: str = Field(max_length=64)


FormModel = TypeVar("FormModel", bound=BaseModel)
FormT = TypeVar("FormT", bound=ActionForm)


_BREAKS: Final = (("%0D", "\r"), ("%0A", "\n"), ("%0d", "\r"), ("%0a", "\n"))


def _line_breaks(body: str) -> str:
    """A form body with its percent-encoded line breaks decoded already: what ``parse_qsl``
    decodes them to (no other escape is made or unmade), without its Python-level loop per
    escape — a pasted 5,000-move game's body has 10,000 (1.6 ms, 0.2 without; issue 44).

    >>> from urllib.parse import parse_qsl
    >>> body = "text=SH1-C4-AAAAAJ2%0D%0Akm%0a%250A+mk&step=1"
    >>> parse_qsl(_line_breaks(body)) == parse_qsl(body)
    True
    """
    if "%0" in body:
        for escaped, plain in _BREAKS:
            body = body.replace(escaped, plain)
    return body


async def read_form(
    request: Request, model: type[FormModel], code: DealCode | None = None
) -> FormModel:
    """A POST's form, its body parsed once and validated once by the route's pydantic model,
    whose fields are the values the engine takes (:func:`parsed`); ``code``, the deal the form
    acts on, is the validation context (a Seahaven place depends on the deal's cells).

    The route has passed :func:`app.web.edge.dependencies.guard_write` first. Browsers and htmx
    send ``application/x-www-form-urlencoded``: one ``parse_qsl``, instead of
    FastAPI's ``Form()`` machinery and a dependency per shared object (about 0.15 ms a tap,
    measured with py-spy). Multipart bodies still work. As with ``Form()``, an empty value
    counts as missing, and bad input raises the same ``RequestValidationError``, so the 422
    page is unchanged.
    """
    if request.headers.get("content-type", "").startswith("multipart/form-data"):
        form = await request.form()
        data = {name: value for name, value in form.multi_items() if isinstance(value, str)}
        data = {name: value for name, value in data.items() if value}
    else:
        body = (await request.body()).decode("utf-8", "replace")
        data = dict(parse_qsl(_line_breaks(body)))
    try:
        return model.model_validate(data, context={"code": code})
    except ValidationError as error:
        problems = [{**problem, "loc": ("body", *problem["loc"])} for problem in error.errors()]
        raise RequestValidationError(problems) from None


T = TypeVar("T")


def parsed(parse: Callable[[str, DealCode | None], T], accepted: str) -> PlainValidator:
    """A form field whose value the engine's own parser reads (given the form's deal, when
    the route has one); a value it refuses is a ``not_accepted`` error whose message is
    ``accepted`` (a catalog text), which the 422 page says after naming the field."""

    def validate(value: object, info: ValidationInfo) -> T:
        code = info.context["code"] if info.context else None
        try:
            if isinstance(value, str):
                return parse(value, code)
        except (ValueError, LookupError):
            pass
        raise PydanticCustomError("not_accepted", accepted)

    return PlainValidator(validate)


CardField = Annotated[Card, parsed(lambda text, _code: Card.parse(text), CARD_HELP)]
"""A card a form names (``AS``, ``10D``)."""
