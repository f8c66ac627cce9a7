"""Tint, the WGSL compiler in Chromium's WebGPU, as an oracle: ``tint_diagnostics(codes,
folder)`` creates a shader module of each WGSL text in headless Chromium (WebGPU on
SwiftShader, with its subgroups and f16 features where it has them) and gives its
compilation messages, ``(type, line, message)`` with type
"error", "warning" or "info"; None where no Chromium with WebGPU runs here."""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

PAGE = """<html><body><script>
const cases = %s;
(async () => {
  const out = {};
  try {
    const adapter = await navigator.gpu.requestAdapter();
    const requiredFeatures = ["subgroups", "shader-f16"].filter(f => adapter.features.has(f));
    const device = await adapter.requestDevice({requiredFeatures});
    const names = Object.keys(cases);
    const infos = await Promise.all(names.map(
      name => device.createShaderModule({code: cases[name]}).getCompilationInfo()));
    names.forEach((name, i) => {
      out[name] = infos[i].messages.map(m => [m.type, m.lineNum, m.message]);
    });
  } catch (e) { out["<failure>"] = String(e); }
  document.body.textContent = "RESULT" + JSON.stringify(out) + "END";
})();
</script></body></html>"""

FLAGS = ["--headless=new", "--no-sandbox", "--no-first-run", "--disable-sync",
         "--enable-unsafe-webgpu", "--enable-features=Vulkan", "--use-vulkan=swiftshader",
         "--use-webgpu-adapter=swiftshader", "--disable-vulkan-surface",
         "--virtual-time-budget=30000", "--dump-dom"]


def tint_diagnostics(codes: dict[str, str], folder: Path) -> dict[str, list] | None:
    """Tint's messages for each WGSL text of ``codes`` (by name); None without Chromium's
    WebGPU. ``folder`` holds the page and the browser's profile."""
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        return None
    page = folder / "tint.html"
    page.write_text(PAGE % json.dumps(codes))
    env = dict(os.environ, XDG_RUNTIME_DIR=str(folder))
    for attempt in range(5):  # --dump-dom may not wait for the GPU's promises: try again
        done = subprocess.run([exe, *FLAGS, f"--user-data-dir={folder / f'profile{attempt}'}",
                               page.as_uri()], capture_output=True, text=True, timeout=120,
                              env=env, cwd=folder)
        result = re.search(r"<body>RESULT(.*)END</body>", done.stdout, re.S)
        if result is not None:
            found = json.loads(html.unescape(result.group(1)))
            return None if "<failure>" in found else found
    return None
