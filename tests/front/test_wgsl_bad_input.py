"""Bad input to ``ash.load_wgsl``: each gets a diagnostic naming the place
and the fix, never a hang or a bare traceback from inside the loader, and the inputs WGSL
allows (an empty module, Unicode identifiers, a large file) load and run."""

import numpy as np
import pytest

import asyncshader as ash

KERNEL = """\
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
override scale: u32 = 2u;

@compute @workgroup_size(1)
fn main() { out[0] = 21u * scale; }
"""


def first_line(err) -> str:
    return str(err.value).splitlines()[0]


def test_an_empty_file_is_a_module_without_entry_points(tmp_path):
    path = tmp_path / "empty.wgsl"
    path.write_text("", encoding="utf-8")
    module = ash.load_wgsl(str(path))
    assert module.entry_points == []
    with pytest.raises(KeyError, match="no entry point or declaration 'main'"):
        module["main"]


def test_a_binary_file_is_refused_as_not_utf8(tmp_path):
    path = tmp_path / "noise.wgsl"
    path.write_bytes(bytes([0x89, 0x50, 0x4E, 0x47, 0xFF, 0x00, 0x13]))
    with pytest.raises(ash.ShaderCreationError) as err:
        ash.load_wgsl(str(path))
    assert first_line(err) == (f"{path}: not a WGSL file: byte 0 is not UTF-8 "
                               "(WGSL source is Unicode text in UTF-8)")


def test_text_with_control_characters_names_the_code_point():
    with pytest.raises(ash.ShaderCreationError) as err:
        ash.load_wgsl("fn f() {}\n\x00\x01 garbage")
    assert ":2:1: error: unexpected code point U+0000: not WGSL text" in first_line(err)


def test_bytes_are_refused_with_what_load_wgsl_takes():
    with pytest.raises(TypeError, match="load_wgsl takes WGSL text or a .wgsl path, not bytes"):
        ash.load_wgsl(KERNEL.encode())


def test_a_10_megabyte_file_loads_and_its_errors_name_their_line():
    filler = "// " + "x" * 76 + "\n"  # 80 bytes a line
    lines = 10_000_000 // len(filler)
    module = ash.load_wgsl(filler * lines + KERNEL)
    out = np.zeros(1, np.uint32)
    ash.run(module["main"], 1, out=out)
    assert out.tolist() == [42]
    with pytest.raises(ash.ShaderCreationError) as err:
        ash.load_wgsl(filler * lines + KERNEL.replace("21u * scale", "21u * scael"))
    assert f":{lines + 5}:" in first_line(err) and "scael" in str(err.value)


def test_ten_thousand_nested_parentheses_are_a_diagnostic_not_a_recursion_error():
    wgsl = "const x = " + "(" * 10_000 + "1" + ")" * 10_000 + ";\n"
    with pytest.raises(ash.ShaderCreationError) as err:
        ash.load_wgsl(wgsl)
    assert "nested more than 128 levels deep" in first_line(err)
    assert "simplify it" in first_line(err)


def test_an_unterminated_block_comment_is_named_at_its_start():
    with pytest.raises(ash.ShaderCreationError) as err:
        ash.load_wgsl(KERNEL + "\n/* the rest\nfn g() {}\n")
    assert first_line(err).endswith(":7:1: error: unterminated block comment: '/*' has no "
                                    "matching '*/'")


def test_unicode_identifiers_load_and_run():
    wgsl = """\
@group(0) @binding(0) var<storage, read_write> données: array<f32>;

@compute @workgroup_size(2)
fn principal(@builtin(local_invocation_index) índice: u32) {
    let Δ = 1.5;
    données[índice] = Δ * f32(índice + 1u);
}
"""
    module = ash.load_wgsl(wgsl)
    assert module.entry_points == ["principal"]
    data = np.zeros(2, np.float32)
    ash.run(module["principal"], 1, données=data)
    assert data.tolist() == [1.5, 3.0]


@pytest.mark.parametrize("word", ["async", "class", "typedef", "await"])
def test_a_reserved_word_as_a_name_is_refused_with_the_fix(word):
    with pytest.raises(ash.ShaderCreationError) as err:
        ash.load_wgsl(f"fn f() {{ let {word} = 1; }}\n")
    assert first_line(err).endswith(f":1:14: error: '{word}' is a reserved word in WGSL and "
                                    "cannot be used as a name; rename it")


def test_a_missing_entry_point_lists_the_ones_there_are():
    module = ash.load_wgsl(KERNEL + "@compute @workgroup_size(1) fn other() {}\n")
    with pytest.raises(KeyError) as err:
        module["mian"]
    assert "has no entry point or declaration 'mian'; its entry points: main, other" in str(
        err.value)


def test_constants_for_an_undeclared_override_are_refused_naming_the_overrides():
    with pytest.raises(ash.ShaderCreationError) as err:
        ash.load_wgsl(KERNEL, constants={"sacle": 3})
    assert first_line(err).endswith(": constants= gives 'sacle', which is no override of the "
                                    "module (by name or @id); its overrides: scale")


def test_a_binding_of_the_wrong_size_names_binding_type_and_sizes():
    module = ash.load_wgsl(KERNEL)
    with pytest.raises(ash.BindingError) as err:
        ash.run(module["main"], 1, out=np.zeros(3, np.uint8))
    assert str(err.value) == (
        f"{module.name}::main: binding 'out' (@group(0) @binding(0) var<storage, read_write> "
        "out: array<u32>) needs a multiple of 4 bytes, at least 4; got 3 bytes (an array of "
        "shape (3,), uint8)")
