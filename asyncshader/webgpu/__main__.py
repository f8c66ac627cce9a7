"""``python -m asyncshader.webgpu program.py [args]``: runs a wgpu-py program with ``import
wgpu`` giving asyncshader's device (:func:`asyncshader.webgpu.swap.run_program`)."""

import sys

from .swap import run_program

if len(sys.argv) < 2:
    sys.exit("usage: python -m asyncshader.webgpu PROGRAM.py [ARGS...]  (runs a wgpu-py "
             "program on asyncshader's CPU device)")
run_program(sys.argv[1], sys.argv[2:])
