"""`sleuth serve`: the notebook as a local web page, over the same sessions as `sleuth assist`.

`create_app(directory, token)` is the Starlette app; `serve(host, port, directory)` runs it
with uvicorn. The pages render and route only: every rule, parse and deduction comes from
`sleuth.assist.Session`. Needs the `web` extra (starlette, jinja2, uvicorn).
"""
