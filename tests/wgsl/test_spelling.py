"""One table spells asyncshader's built-ins in WGSL and back: the emitter writes ``camel`` of
a Python name, the WGSL front-end calls ``snake`` of a WGSL name, and each undoes the other for
every built-in the emitter knows."""

from asyncshader.emit import names
from asyncshader.wgsl.spelling import camel, snake


def test_the_irregular_names():
    assert camel("pack4xi8_clamp") == "pack4xI8Clamp" and snake("pack4xI8Clamp") == "pack4xi8_clamp"
    assert camel("dot4u8_packed") == "dot4U8Packed" and snake("dot4U8Packed") == "dot4u8_packed"
    assert camel("inverse_sqrt") == "inverseSqrt" and snake("inverseSqrt") == "inverse_sqrt"


def test_snake_undoes_camel_for_every_built_in_the_emitter_knows():
    rows = list(names.BUILTINS.values())
    assert len(rows) > 100
    assert [r.name for r in rows if snake(camel(r.name)) != r.name] == []
