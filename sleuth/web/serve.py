"""`sleuth serve`: the notebook's web page on this machine (or, with a token, the network)."""

from __future__ import annotations

import ipaddress
import secrets
import socket
from pathlib import Path

from engines import ConfigError


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def serve(host: str, port: int, directory: Path | str | None) -> int:
    """Serve the sessions in `directory` on `host`:`port` until interrupted (port 0: any free
    one). Prints the address to open, with the access token when the host is not loopback.

    Raises:
        ConfigError: the web extra is not installed, or the address cannot be used.
    """
    try:  # optional: the web extra
        import uvicorn

        from sleuth.web.app import create_app
    except ImportError as error:
        raise ConfigError(
            f"`sleuth serve` needs the web extra: pip install 'sleuth[web]' ({error})"
        ) from None
    token = None if is_loopback(host) else secrets.token_urlsafe(18)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(128)  # connections wait in the backlog until uvicorn runs
    except OSError as error:
        sock.close()
        raise ConfigError(f"cannot listen on {host}:{port}: {error.strerror}") from None
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    address = f"http://{shown}:{bound}/" + (f"?token={token}" if token else "")
    print(f"sleuth notebook: {address}", flush=True)
    if token is not None:
        print(
            "Open it on a phone on the same network with this computer's address in place of "
            f"{host}; the token is asked once, then kept in a cookie. Ctrl-C stops.",
            flush=True,
        )
    else:
        print("Only this computer can open it (--host 0.0.0.0 for a phone). Ctrl-C stops.",
              flush=True)  # fmt: skip
    config = uvicorn.Config(
        create_app(directory, token), log_level="warning", access_log=False, lifespan="off"
    )
    uvicorn.Server(config).run(sockets=[sock])
    return 0
