"""Schedules: the strategies that pick who runs next (InOrder, Reverse, Random, PCT, Replay,
bounded exhaustive search) and the :class:`~asyncshader.Trace` that records a run's decisions.
They plug into the core's scheduler through the Strategy protocol and know nothing of WGSL.
"""
