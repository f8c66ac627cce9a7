"""Lockstep: compute dispatches run as numpy arrays over lanes, compiled from the WGSL
front-end's typed IR (docs/lockstep.md)."""

from .replay import LockstepReplay
from .schedule import Lockstep

__all__ = ["Lockstep", "LockstepReplay"]
