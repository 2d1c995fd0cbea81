"""The browser arcade: a Starlette app over the three engines, with its static page (no build step)."""

from tilegames.web.app import create_app

__all__ = ["create_app"]
