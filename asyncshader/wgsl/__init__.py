"""The WGSL value and memory model: scalar and vector types, typed arrays, workgroup memory,
storage and uniform bindings, pointers and atomics, and the arrays that report each access to
instruments (``watched``).
"""
