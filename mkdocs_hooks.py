"""mkdocs hook (mkdocs.yml ``hooks:``): the docstrings' Sphinx roles (``:class:`~pkg.Name```)
render as plain code (``Name``) in the generated reference, instead of showing the role."""

import re

_ROLE = re.compile(r":(?:class|func|meth|attr|mod|data|exc|obj):<code>(~?)([\w.]+)</code>")


def on_page_content(html: str, **kwargs: object) -> str:
    """Replaces each role by its target (the last part, for a ``~`` target)."""
    def plain(m: re.Match) -> str:
        target = m.group(2).rsplit(".", 1)[-1] if m.group(1) else m.group(2)
        return f"<code>{target}</code>"

    return _ROLE.sub(plain, html)
