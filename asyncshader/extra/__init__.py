"""Integrations with other libraries, each imported on its own (``import
asyncshader.extra.hypothesis``) so that asyncshader never needs them."""
