"""Exploration: run a kernel under many schedules (``explore``), and shrink a failing trace to
a short one that still fails (``shrink``).
"""
