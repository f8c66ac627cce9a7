"""The tools: the command line, the pytest plugin, the bundled demo and image helpers.
Nothing below imports from here.
"""
