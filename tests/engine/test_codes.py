"""Deal codes (SPEC §1): grammar, forgiving parse, canonical output, refusals."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.engine.codes import MAX_NUMBER, DealCode, DealCodeError, decode_number, encode_number
from app.engine.seahaven import cells_of


def test_documents_half_moon_example_is_deal_one():
    code = DealCode.parse("HM1-N-AAAAAAB")
    assert code == DealCode("HM", 1, "N", 1)
    assert str(code) == "HM1-N-AAAAAAB"


def test_documents_seahaven_example_is_deal_314_with_four_cells():
    code = DealCode.parse("SH1-C4-AAAAAJ2")
    assert code == DealCode("SH", 1, "C4", 314)
    assert cells_of(code) == 4
    assert str(code) == "SH1-C4-AAAAAJ2"


@given(st.integers(min_value=0, max_value=MAX_NUMBER), st.sampled_from(["N", "C4", "C2", "C1"]))
def test_every_number_round_trips(number, variant):
    code = DealCode("HM" if variant == "N" else "SH", 1, variant, number)
    assert DealCode.parse(str(code)) == code
    assert decode_number(encode_number(number)) == number


def test_number_bounds():
    assert encode_number(0) == "AAAAAAA"
    assert encode_number(MAX_NUMBER) == "7777777"
    with pytest.raises(DealCodeError):
        encode_number(MAX_NUMBER + 1)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("hm1-n-aaaaaab", "HM1-N-AAAAAAB"),
        ("  SH1-C4-AAAAAJ2\n", "SH1-C4-AAAAAJ2"),
        ("HM1-N-0000001", "HM1-N-OOOOOOI"),  # 0 → O, 1 → I
        ("sh1-c1-8aaaaaa", "SH1-C1-BAAAAAA"),  # 8 → B
    ],
)
def test_parse_is_forgiving_and_output_canonical(text, canonical):
    assert str(DealCode.parse(text)) == canonical


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "not a deal code"),
        ("HM1-N", "not a deal code"),
        ("XX1-N-AAAAAAB", "must start with HM or SH"),
        ("HM2-N-AAAAAAB", "version after HM must be 1"),
        ("HM1-C4-AAAAAAB", "variant of HM must be N"),
        ("SH1-N-AAAAAAB", "variant of SH must be C4 or C2 or C1"),
        ("SH1-C3-AAAAAAB", "variant of SH must be C4 or C2 or C1"),
        ("HM1-N-AAAAAA", "exactly 7 characters"),
        ("HM1-N-AAAAAA9", "letters A–Z and digits 2–7"),
        ("HM1-N-" + "A" * 100, "looks like HM1-N-AAAAAAB"),
    ],
)
def test_refusal_says_what_was_wrong_and_shows_the_format(text, says):
    with pytest.raises(DealCodeError) as caught:
        DealCode.parse(text)
    assert says in str(caught.value)
    assert "HM1-N-AAAAAAB" in str(caught.value)


def test_random_codes_are_valid_and_vary():
    codes = {DealCode.random("HM") for _ in range(20)}
    assert len(codes) > 1
    assert all(c.variant == "N" and 0 <= c.number <= MAX_NUMBER for c in codes)
    assert DealCode.random("SH", "C1").variant == "C1"


def test_seahaven_variant_can_change_without_changing_the_number():
    code = DealCode.parse("SH1-C4-AAAAAJ2").with_variant("C1")
    assert str(code) == "SH1-C1-AAAAAJ2"
    with pytest.raises(DealCodeError):
        code.with_variant("N")
