"""The course's lessons, one package each, named by the lesson's id (``context-compaction`` is
``context_compaction``). This folder holds lessons and nothing else: `lessonkit.registry` finds
them here, so adding a lesson changes no shared file.
"""
