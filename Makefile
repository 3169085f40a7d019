# Shortcuts; the scripts are the real commands (they need nothing but bash and Python 3.11).
.PHONY: test fast lint bench solve messages

test:
	bash scripts/test

# The fast loop: all but the browser, system and slow tests (README: how long it takes).
fast:
	bash scripts/fast

lint:
	.venv/bin/ruff check . && .venv/bin/ruff format --check . && .venv/bin/mypy

bench:
	.venv/bin/python -m bench.bench_halfmoon
	.venv/bin/python -m bench.bench_seahaven

solve:
	.venv/bin/python -m app.engine.solve_cli $(CODE)

# Interface texts: extract from code and templates, merge into the catalogs (then translate
# the new or fuzzy entries; tests/web/test_languages.py fails until every text is translated).
messages:
	.venv/bin/pybabel extract -F babel.cfg -k N_ -k pgettext:1c,2 --no-location --omit-header \
		--sort-output -o app/locales/messages.pot .
	.venv/bin/pybabel update -i app/locales/messages.pot -d app/locales \
		--ignore-obsolete
