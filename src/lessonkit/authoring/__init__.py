"""Build-time tools for lesson authors: claims in prose, runnable samples, panel fences, site hooks.

Nothing here runs in the reader's browser; the engine modules never import it.
"""
