"""Front-ends: source languages read into asyncshader's shader model. ``front.wgsl`` reads
WGSL text (tokens, template lists, the grammar, diagnostics as a compiler gives them)."""
