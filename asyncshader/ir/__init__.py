"""The typed IR shared by every front-end and back-end: one static model of WGSL's types
(:mod:`.types`) and their memory layout (:mod:`.layout`). The Python-to-WGSL emitter
(``emit/``) and the WGSL front-end (``front/wgsl/``) both type shaders with it."""
