# Shortcuts; the scripts are the real commands (they need nothing but bash and Python 3.11).
.PHONY: test lint bench solve

test:
	bash scripts/test

lint:
	.venv/bin/ruff check . && .venv/bin/ruff format --check . && .venv/bin/mypy

bench:
	.venv/bin/python -m bench.bench_halfmoon
	.venv/bin/python -m bench.bench_seahaven

solve:
	.venv/bin/python -m app.engine.solve $(CODE)
