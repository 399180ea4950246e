"""The bounded cache under its former name, for ``web/api.py`` (being reworked on another
branch): new code imports :class:`companion.web.live.cache.Cache`."""

from companion.web.live.cache import Cache as Kept

__all__ = ["Kept"]
