"""The core: one run loop over coroutines, knowing nothing of WGSL.

Traps (the only way a shader suspends), invocations and groups, the scheduler with its fast
paths and lean rounds, instruments, the running dispatch's context variable, and the messages
written when a run goes wrong. Everything above builds on these; nothing here imports from
above (``asyncshader.errors`` is the one module below it).
"""
