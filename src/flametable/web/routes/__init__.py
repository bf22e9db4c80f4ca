"""The server's HTTP routes, one module per concern, each with its module-level endpoints and its ``routes``:
``pages`` (the browser client's pages, files and texts; ``/healthz``), ``games`` (the registry's games),
``rooms`` (making, listing, showing and joining rooms), ``matches`` (ended matches' records and replays). The
WebSocket is :mod:`flametable.web.socket`; :func:`flametable.web.app.create_app` assembles them."""
