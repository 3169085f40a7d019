"""The vendored axe-core is the file its README names, and the application never serves it."""

from __future__ import annotations

import base64
import hashlib

import httpx
import pytest

from tests.browser.conftest import AXE_FILE, AXE_URL_PATH, VENDOR

AXE_SHA384 = "xt1SFg49QaDwsyt0Xfs2XAyBtYPClXl3X2q5OOLeGAUmq9jZTYIMdztpF99WdhiH"


def test_axe_core_is_the_pinned_release():
    digest = base64.b64encode(hashlib.sha384(AXE_FILE.read_bytes()).digest()).decode()
    assert digest == AXE_SHA384
    assert AXE_FILE.read_bytes().startswith(b"/*! axe v4.14.1")
    assert (VENDOR / "axe-core-4.14.1.LICENSE").read_text().startswith("Mozilla Public License")
    readme = (VENDOR / "README.md").read_text()
    assert AXE_SHA384 in readme and AXE_FILE.name in readme


@pytest.mark.parametrize(
    "path",
    [
        "/static/axe-core-4.14.1.min.js",
        "/static/vendor/axe-core-4.14.1.min.js",
        "/static/browser/vendor/axe-core-4.14.1.min.js",
        "/static/tests/browser/vendor/axe-core-4.14.1.min.js",
        "/static/..%2Ftests%2Fbrowser%2Fvendor%2Faxe-core-4.14.1.min.js",
        "/static/%2e%2e/tests/browser/vendor/axe-core-4.14.1.min.js",
        AXE_URL_PATH,
        "/tests/browser/vendor/axe-core-4.14.1.min.js",
    ],
)
def test_the_application_never_serves_axe(server, path):
    response = httpx.get(server.url + path)
    assert response.status_code == 404
    assert b"axe v4.14.1" not in response.content
