"""The stages: compute and fragment front-ends (``@compute``, ``@fragment``, ``run``,
``dispatch``, ...) that build invocations and groups, inject builtins, bind resources, drive the
scheduler and collect outputs; ``dispatch`` holds what both share.
"""
