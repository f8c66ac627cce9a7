"""Views: pictures of a run. A :class:`~asyncshader.views.timeline.Timeline` instrument records
it; it renders as Chrome trace events (Perfetto), an HTML/SVG page, a terminal view, and access
diagrams (:func:`~asyncshader.views.access.access_diagram`)."""
