"""Optional integrations: modules that need a dependency asyncshader does not require (``gpu``:
wgpu, the ``gpu`` extra; ``hypothesis``: Hypothesis, the ``hypothesis`` extra). Importing this
package needs nothing; import each module on its own (``import asyncshader.extra.hypothesis``).
"""
