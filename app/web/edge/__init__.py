"""What every request passes through: the middleware, the shared request state (dependencies), the
errors and their pages, htmx headers, the logs, health, metrics, and the worker's warm-up."""
