"""The sanitizers: the race detector, the findings it reports (with their rendering), and the
checks made on a shader's source when it is decorated (a forgotten ``await``, direct awaits).
"""
