"""Optional integrations: modules that need a dependency asyncshader does not require (``gpu``:
wgpu, the ``gpu`` extra). Importing this package needs nothing; importing a module in it needs
its dependency only when a function of it runs."""
