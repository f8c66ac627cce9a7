"""The collectives: small resolvers on the core's one rendezvous mechanism (barriers and
``workgroup_uniform_load``, quad operations, derivatives).
"""

from typing import Any

from .._compat import forward


def __getattr__(name: str) -> Any:
    # ``asyncshader.collectives`` was the barriers' module before 0.2: its names still resolve
    return forward("collectives", "collectives.barriers", name)
