"""The game page's client (static/js/, issue 47 item 4): its state stepped by pure functions,
tested without a browser by Node's own test runner (tests/static/js/*.test.mjs), and no module
over 500 lines."""

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).parents[2]
SCRIPTS = ROOT / "static" / "js"
NODE_TESTS = sorted((Path(__file__).parent / "js").glob("*.test.mjs"))
MAX_LINES = 500


def test_the_client_state_steps_pass_under_node():
    node = shutil.which("node")
    assert node, "Node.js is needed (scripts/setup.sh installs Debian's nodejs)"
    assert NODE_TESTS
    result = subprocess.run(
        [node, "--test", *map(str, NODE_TESTS)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "# fail 0" in result.stdout


def test_no_client_module_is_over_500_lines():
    lengths = {
        path.relative_to(ROOT).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in SCRIPTS.rglob("*.js")
    }
    assert "static/js/client/state.js" in lengths
    assert {name: n for name, n in lengths.items() if n > MAX_LINES} == {}


def test_the_client_state_is_one_module_of_pure_steps():
    """The state's module touches nothing of the page: no DOM, no timers, no network."""
    text = (SCRIPTS / "client" / "state.js").read_text(encoding="utf-8")
    comment = ("//", "/*", "*")
    code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith(comment))
    for name in ("document", "window", "setTimeout", "htmx.", "localStorage", "import "):
        assert name not in code, name
