"""Textures and samplers: texel formats (``formats``), the resources (``resources``), the
annotations that declare them in a shader (``annotations``), filtering (``sampling``) and the
WGSL texture built-ins that need no quad (``builtins``)."""
